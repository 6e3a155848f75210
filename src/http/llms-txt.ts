/** The parts of the OpenAPI document /llms.txt is written from. */
export interface LlmsSource {
  readonly info: { readonly title: string; readonly description?: string; readonly version: string };
  readonly paths?: Readonly<Record<string, Readonly<Record<string, LlmsOperation>>>>;
}
interface LlmsOperation {
  readonly operationId?: string;
  readonly summary?: string;
  readonly tags?: readonly string[];
  readonly security?: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly 'x-cost'?: number | string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
/** Operations for operators and payment providers, not for a caller with a token: the llms.txt "Optional" section. */
const OPTIONAL_TAGS = new Set(['service', 'manage', 'billing']);

/** The operation's `x-cost` as a sentence. */
export function costText(value: number | string | undefined): string {
  if (value === undefined || value === 0) return 'Cost: free.';
  if (typeof value === 'number') return `Cost: ${value} ${value === 1 ? 'credit' : 'credits'}.`;
  return `Cost in credits: ${value}.`;
}

function auth(operation: LlmsOperation): string {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('TokenAuth')) return ' with x-token';
  if (schemes.includes('AdminAuth')) return ' with x-admin-token';
  return '';
}

function entry(method: string, path: string, operation: LlmsOperation): string {
  const tag = operation.tags?.[0] ?? 'other';
  const id = operation.operationId ?? `${method} ${path}`;
  const summary = operation.summary === undefined ? '' : ` ${operation.summary.replace(/\.?$/, '.')}`;
  return `- [${id}](/docs#/${tag}/${id}): \`${method.toUpperCase()} ${path}\`${auth(operation)}.${summary} ${costText(operation['x-cost'])}`;
}

/**
 * /llms.txt (https://llmstxt.org): an H1, a blockquote summary, how to get a token, then every operation of the
 * OpenAPI document grouped by tag, each a link to its place in /docs with method, path, summary and cost.
 * Written from the document, so it lists what /openapi.json lists and nothing else.
 */
export function llmsTxt(document: LlmsSource): string {
  const sections = new Map<string, string[]>();
  const optional: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const tag = operation.tags?.[0] ?? 'other';
      if (OPTIONAL_TAGS.has(tag)) optional.push(entry(method, path, operation));
      else sections.set(tag, [...(sections.get(tag) ?? []), entry(method, path, operation)]);
    }
  }
  // "Create a token (a wallet with 100 credits)": what a new token comes with.
  const newWallet = /\(([^)]+)\)/.exec(document.paths?.['/token']?.post?.summary ?? '')?.[1] ?? 'a new wallet';
  const lines = [
    `# ${document.info.title}`,
    '',
    `> ${document.info.description ?? ''}`,
    '',
    `Version ${document.info.version}. Every path below is relative to this service's address.`,
    '',
    'Getting a token: `POST /token` with the form body `token=new` (`content-type: application/x-www-form-urlencoded`, no token needed,',
    `rate limited per client) answers a new token in plain text, ${newWallet}. Send it as the \`x-token\` header on every other call.`,
    'Each call is charged from that wallet: answers carry `x-cost` (credits this call cost) and `x-balance` (credits left). `GET /token` shows the wallet,',
    '`GET /recharge` gives a payment link. Errors are plain text (`Unauthorized`, `Insufficient credits`, `Key Not Found`, …), except url-to-metadata,',
    'which answers `{"success": false, "error": "…"}`.',
    '',
    '## Docs',
    '',
    '- [OpenAPI document](/openapi.json): every operation with its schemas, its cost (`x-cost`), its errors and an example',
    '- [Interactive documentation](/docs): the same document, rendered',
    '',
  ];
  for (const [tag, entries] of sections) lines.push(`## ${tag}`, '', ...entries, '');
  if (optional.length > 0) lines.push('## Optional', '', ...optional, '');
  return lines.join('\n');
}
