import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Finds references a clone of the repository cannot follow: citations of documents that are not in it (the old
 * contract and decision files, issue numbers) in comments and docs, and links or paths to a docs/ file or heading
 * that does not exist. Strings in code are left alone: they are what the service answers, not references.
 */

/** Citations that point outside the repository. */
const OUTSIDE: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  { pattern: /\bSPEC\b/g, what: 'cites SPEC' },
  { pattern: /\bDECISIONS\b/g, what: 'cites DECISIONS' },
  { pattern: /\bissue\s*#?\d+/gi, what: 'cites an issue number' },
];

/** A docs/ path in prose or a comment, with the anchors that follow it (`docs/<file>.md#<anchor>, #<anchor>`). */
const DOCS_PATH = /\bdocs\/[\w./-]+\.md((?:#[\w-]+)(?:(?:,| and) #[\w-]+)*)?/g;

/** A markdown link or image target: `[text](target)`. */
const MARKDOWN_LINK = /\]\(([^()\s]+)\)/g;

export interface Finding {
  file: string;
  line: number;
  problem: string;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a markdown text (a repeated heading gets -1, -2, … as on GitHub). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The text of a source file with its string, template and regular-expression literals and JSX text blanked out. */
export function commentsAndCode(source: string, fileName: string): string {
  const kind = fileName.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : fileName.endsWith('.ts')
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const chars = source.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (chars[i] !== '\n') chars[i] = ' ';
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node) ||
      ts.isJsxText(node)
    ) {
      blank(node.getStart(file), node.end);
      return;
    }
    if (ts.isTemplateExpression(node)) {
      blank(node.head.getStart(file), node.head.end);
      for (const span of node.templateSpans) {
        visit(span.expression);
        blank(span.literal.getStart(file), span.literal.end);
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return chars.join('');
}

const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** Problems with one link target (a path, a path and an anchor, or an anchor alone), resolved from `base`. */
function checkTarget(
  root: string,
  base: string,
  target: string,
  readMarkdown: (path: string) => string | undefined,
): string | undefined {
  const [pathPart = '', anchor] = target.split('#');
  const path = pathPart === '' ? base : resolve(dirname(base), pathPart);
  if (!path.startsWith(root)) return `links ${target}, outside the repository`;
  const markdown = path.endsWith('.md') ? readMarkdown(path) : undefined;
  const exists = path.endsWith('.md') ? markdown !== undefined : existsSync(path);
  if (pathPart !== '' && !exists) return `links ${target}, which does not exist`;
  if (anchor === undefined || !path.endsWith('.md')) return undefined;
  if (markdown === undefined || !anchorsOf(markdown).has(anchor))
    return `links ${target}, a heading ${relative(root, path)} does not have`;
  return undefined;
}

/**
 * The problems of one file's text. Markdown is read whole; code is read without its literals. `readMarkdown`
 * reads the markdown a link points to (tests pass in-memory probes through it).
 */
export function findingsIn(
  root: string,
  relativePath: string,
  text: string,
  readMarkdown: (path: string) => string | undefined = (path) =>
    existsSync(path) ? readFileSync(path, 'utf8') : undefined,
): Finding[] {
  const file = join(root, relativePath);
  const markdown = relativePath.endsWith('.md');
  const scanned = markdown || relativePath.endsWith('.sh') ? text : commentsAndCode(text, relativePath);
  const findings: Finding[] = [];
  const add = (index: number, problem: string) =>
    findings.push({ file: relativePath, line: lineAt(scanned, index), problem });

  for (const { pattern, what } of OUTSIDE)
    for (const match of scanned.matchAll(pattern)) add(match.index, `${what}: ${match[0]}`);

  for (const match of scanned.matchAll(DOCS_PATH)) {
    const path = match[0].replace(/#.*$/, '');
    const anchors = [...(match[1] ?? '').matchAll(/#([\w-]+)/g)].map((anchor) => anchor[1]);
    for (const target of anchors.length > 0 ? anchors.map((anchor) => `${path}#${anchor}`) : [path]) {
      const problem = checkTarget(root, join(root, 'README.md'), target, readMarkdown);
      if (problem !== undefined) add(match.index, problem);
    }
  }

  if (markdown) {
    for (const match of scanned.matchAll(MARKDOWN_LINK)) {
      const target = match[1] ?? '';
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto: …
      const problem = checkTarget(root, file, target, readMarkdown);
      if (problem !== undefined) add(match.index, problem);
    }
  }
  return findings;
}

/** The files whose comments and docs are checked: the sources, tests, scripts, benchmarks and every markdown file. */
export function checkedFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (name.startsWith('.') || name === 'node_modules' || name === 'dist' || name === 'generated') return [];
      if (statSync(join(root, path)).isDirectory()) return walk(path);
      return /\.(ts|tsx|mjs|js|sh|md)$/.test(name) ? [path] : [];
    });
  const folders = ['src', 'test', 'bench', 'scripts', 'docs', 'console/src', 'clients/typescript/src'].filter((dir) =>
    existsSync(join(root, dir)),
  );
  const topLevel = readdirSync(root).filter((name) => name.endsWith('.md'));
  return [...topLevel, ...folders.flatMap(walk)];
}
