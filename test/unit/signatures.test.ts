import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No function in src/ takes five or more positional parameters: past four, call sites read as a row of values
 * whose order the reader must remember, so such a function takes a named options object (or fewer, grouped
 * parameters) instead. Every kind of function counts — declarations, methods, constructors, arrows, function
 * expressions and function types — and nothing in src/ is excluded. `this` parameters are types only, not
 * arguments, so they are not counted; a rest parameter counts as one.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MOST_POSITIONAL = 4;

function sourceFilesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return `constructor of ${node.parent.name?.text ?? 'a class'}`;
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isTypeAliasDeclaration(parent))
    return parent.name.getText();
  return 'an unnamed function';
}

/** `file:line name (parameters)` for each function of `source` with more than MOST_POSITIONAL parameters. */
function wideSignaturesIn(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) {
      const parameters = node.parameters.filter(
        (parameter) => !(ts.isIdentifier(parameter.name) && parameter.name.text === 'this'),
      );
      if (parameters.length > MOST_POSITIONAL) {
        const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
        found.push(
          `${relative(ROOT, path)}:${line} ${nameOf(node)} (${parameters.map((parameter) => parameter.name.getText(file)).join(', ')})`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('function signatures in src/', () => {
  it('the check finds a function, a method, a constructor, an arrow and a function type with five parameters', () => {
    const probe = [
      'export function f(a: number, b: number, c: number, d: number, e: number) {}',
      'class K { constructor(a: number, b: number, c: number, d: number, e: number) {} m(this: K, a: number, b: number, c: number, d: number, e: number) {} }',
      'export const g = (a: number, b: number, c: number, d: number, e: number) => a;',
      'export type T = (a: number, b: number, c: number, d: number, e: number) => void;',
      'export function ok(this: unknown, a: number, b: number, c: number, { d, e }: { d: number; e: number }) {}',
    ].join('\n');
    expect(wideSignaturesIn(join(ROOT, 'src/probe.ts'), probe).map((line) => line.split(' ')[1])).toEqual([
      'f',
      'constructor',
      'm',
      'g',
      'T',
    ]);
  });

  it('no function, method or constructor takes five or more positional parameters', () => {
    const src = join(ROOT, 'src');
    const wide = sourceFilesUnder(src).flatMap((path) => wideSignaturesIn(path, readFileSync(path, 'utf8')));
    expect(wide).toEqual([]);
  });
});
