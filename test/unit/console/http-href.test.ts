import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { httpHref } from '../../../console/src/components/http-href.js';

const CONSOLE_SRC = fileURLToPath(new URL('../../../console/src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("the console's links to URLs from answers", () => {
  it('get an href only for http and https URLs, however a script URL is written', () => {
    expect(httpHref('https://acme.test/path?q=1')).toBe('https://acme.test/path?q=1');
    expect(httpHref('HTTP://Acme.test')).toBe('http://acme.test/');
    for (const url of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'mailto:a@b.test',
      '/relative',
      '//acme.test/x',
      '',
      42,
      undefined,
    ])
      expect(httpHref(url), String(url)).toBeUndefined();
  });

  it('every href in the console is a route of its own (router href) or goes through httpHref', () => {
    const unsafe = sourceFiles(CONSOLE_SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bhref=\{([^}]*)\}?/g)]
        .map((match) => match[1] ?? '')
        .filter((expression) => !/^(href|httpHref)\(/.test(expression))
        .map((expression) => `${relative(CONSOLE_SRC, file)}: href={${expression}}`),
    );
    expect(unsafe).toEqual([]);
  });
});
