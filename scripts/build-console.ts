/**
 * Builds the web console (console/) into dist/console: one JavaScript and one CSS bundle with content-hashed names
 * (served as immutable), each also precompressed with gzip and brotli, and index.html naming them. esbuild is the
 * bundler (already what tsx runs on); no CDN, nothing fetched at run time.
 */
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'dist', 'console');
// Written beside the live copy and swapped in, so a service or test reading dist/console never sees half a build.
const out = `${target}.building-${process.pid}`;

const result = await build({
  entryPoints: [join(root, 'console', 'src', 'main.tsx')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: out,
  write: false,
  legalComments: 'none',
  metafile: true,
  tsconfig: join(root, 'console', 'tsconfig.json'),
  // The shared formatters convert HTML mail bodies with html-to-text; the console's previews use a text body,
  // so the browser build gets a small stand-in instead of the parser (tens of KB).
  alias: { 'html-to-text': join(root, 'console', 'src', 'stubs', 'html-to-text.ts') },
  // The service's pure rules run in the page as they are; the two Node functions they call have browser stand-ins.
  plugins: [nodeStandIns({ 'node:net': 'node-net.ts', 'node:url': 'node-url.ts' })],
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });
const names: Record<string, string> = {};
const sizes: string[] = [];
for (const file of result.outputFiles) {
  const extension = file.path.endsWith('.css') ? 'css' : file.path.endsWith('.js') ? 'js' : undefined;
  if (extension === undefined) continue;
  const hash = createHash('sha256').update(file.contents).digest('base64url').slice(0, 12);
  const name = `app-${hash}.${extension}`;
  names[extension] = name;
  writeAsset(name, Buffer.from(file.contents));
}
if (names.js === undefined) throw new Error('console build produced no JavaScript');
const template = readFileSync(join(root, 'console', 'index.html'), 'utf8');
const html = template
  .replace('%SCRIPT%', `assets/${names.js}`)
  .replace('%STYLE%', names.css === undefined ? '' : `assets/${names.css}`);
writeFileSync(join(out, 'index.html'), html);
writeFileSync(join(out, 'index.html.gz'), gzipSync(html, { level: 9 }));
writeFileSync(join(out, 'index.html.br'), brotliCompressSync(html));
const previous = `${target}.previous-${process.pid}`;
rmSync(previous, { recursive: true, force: true });
try {
  renameSync(target, previous);
} catch {
  // first build: nothing to set aside
}
renameSync(out, target);
rmSync(previous, { recursive: true, force: true });
console.log(`console: ${sizes.join(', ')}`);

function nodeStandIns(files: Record<string, string>): Plugin {
  return {
    name: 'node-stand-ins',
    setup(builder) {
      builder.onResolve({ filter: /^node:(net|url)$/ }, (args) => {
        const file = files[args.path];
        return file === undefined ? undefined : { path: join(root, 'console', 'src', 'stubs', file) };
      });
    },
  };
}

function writeAsset(name: string, contents: Buffer): void {
  writeFileSync(join(out, 'assets', name), contents);
  const gzip = gzipSync(contents, { level: 9 });
  const brotli = brotliCompressSync(contents, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(join(out, 'assets', `${name}.gz`), gzip);
  writeFileSync(join(out, 'assets', `${name}.br`), brotli);
  sizes.push(`${name} ${(contents.length / 1024).toFixed(1)} KB (${(brotli.length / 1024).toFixed(1)} KB br)`);
}
