/** Tools: DNS lookup, URL metadata and my IP, each a paid call whose cost shows before it runs. `#/tools/<tool>` picks one. */
import type { ComponentChildren } from 'preact';
import type { PageProps } from '../app.js';
import { PageTitle } from '../components/ui.js';
import { href } from '../router.js';
import { DnsLookup } from './tools/dns-form.js';
import { UrlMetadata } from './tools/metadata-form.js';
import { MyIp } from './tools/my-ip.js';
import './tools/tools.css';

const TOOLS = [
  { name: 'dns', label: 'DNS lookup' },
  { name: 'metadata', label: 'URL metadata' },
  { name: 'myip', label: 'My IP' },
] as const;

export function Tools({ route }: PageProps) {
  const active = TOOLS.find((tool) => tool.name === route[0]) ?? TOOLS[0];
  return (
    <>
      <PageTitle title="Tools">Tools</PageTitle>
      <nav class="tools-tabs" aria-label="Tools">
        <ul>
          {TOOLS.map((tool) => (
            <li key={tool.name}>
              <a href={href('tools', tool.name)} aria-current={tool === active ? 'page' : undefined}>
                {tool.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {/* All three stay mounted, so a result is still there after a look at another tool. */}
      <Tool name="dns" label="DNS lookup" active={active.name}>
        <DnsLookup />
      </Tool>
      <Tool name="metadata" label="URL metadata" active={active.name}>
        <UrlMetadata />
      </Tool>
      <Tool name="myip" label="My IP" active={active.name}>
        <MyIp />
      </Tool>
    </>
  );
}

function Tool({
  name,
  label,
  active,
  children,
}: {
  name: string;
  label: string;
  active: string;
  children: ComponentChildren;
}) {
  return (
    <section class="panel tools-panel" aria-labelledby={`tool-${name}`} hidden={name !== active}>
      <h2 id={`tool-${name}`}>{label}</h2>
      {children}
    </section>
  );
}
