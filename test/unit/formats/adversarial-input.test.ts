import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import {
  formatEmail,
  type InboundEmailPayload,
  validateFormatConfig,
  redactOptions,
} from '../../../src/formats/index.js';
import { htmlToText } from '../../../src/formats/html-text.js';
import { parsePlaceholders } from '../../../src/formats/template-parser.js';
import { TemplateTooLarge, renderTemplate, validateTemplate } from '../../../src/formats/template-engine.js';
import { rechargeHint } from '../../../src/formats/message.js';
import { escapeMarkup, singleLine, truncate } from '../../../src/formats/text.js';
import { messageIdOf } from '../../../src/features/mail/payload.js';
import { mailboxOf } from '../../../src/features/mail/recipients.js';
import { verifyAttachmentLink } from '../../../src/features/mail/attachment-links.js';
import { checkHeaders } from '../../../src/delivery-core/delivery-headers.js';
import { parseServerSpec } from '../../../src/lib/server-spec.js';

/**
 * Every function that runs a regular expression (or a scan) over outside input — mail headers and
 * bodies, HTML, templates, option keys, header values, server specs — fed 1 MiB shaped against its
 * pattern: long whitespace runs, runs of the characters a pattern alternates on, nested braces.
 * Each call must finish within BOUND_MS (HEAVY_BOUND_MS for those doing real work on every character);
 * a backtracking pattern takes seconds to minutes. Each shape is first run at
 * 1/16 of the size: a quadratic function is caught there in seconds instead of blocking for minutes.
 */
const MB = 1024 * 1024;
const BOUND_MS = 200;
/** Functions doing real per-character work on all of 1 MiB (escaping, HTML conversion, template parsing and rendering). */
const HEAVY_BOUND_MS = 1000;

const run = (char: string, length = MB): string => char.repeat(Math.ceil(length / char.length)).slice(0, length);

const SHAPES: Record<string, string> = {
  spaces: `a${run(' ')}b`,
  'spaces then newline': `a${run(' ')}\n`,
  'newline then spaces': `a\n${run(' ')}b`,
  'tabs and CRs': `a${run('\t \r')}b`,
  'CR LF runs': run('\r\n \r'),
  'unicode spaces': `a${run('\u00a0\u2028 ')}b`,
  slashes: `${run('/')}x`,
  ampersands: run('&a'),
  'long entity names': run('&abcdefghijklmnopqrstuvwxyzabcdefghij'),
  'numeric entities': run('&#12345678'),
  braces: run('{'),
  'nested placeholders': run('{{{{'),
  'open placeholders': run('{{a.'),
  'placeholder chains': `{{${run('a|')}}}`,
  brackets: `{{a${run('[')}}}`,
  quotes: `{{"${run('\\"')}}}`,
  'tags without end': run('<a '),
  'quoted attributes': `<a x=${run('"\' =')}`,
  comments: run('<!-'),
  'unclosed scripts': run('<script><noscript>'),
  'closers without openers': run('</script </style'),
  'break markers': run('<br> <p>\n '),
  'angle brackets': `<${run('<>')}>`,
  colons: run('a:'),
  dots: `${run('a.')}!`,
  'hyphen labels': `${run('a-')}.`,
  digits: run('9'),
};

/** Each subject of the audit, given one adversarial string. */
const SUBJECTS: Record<string, (input: string) => unknown> = {
  singleLine: (input) => singleLine(input),
  truncate: (input) => truncate(input, 3000, { escape: true }),
  escapeMarkup: (input) => escapeMarkup(input),
  htmlToText: (input) => htmlToText(input),
  parsePlaceholders: (input) => parsePlaceholders(input),
  validateTemplate: (input) => validateTemplate({ v: input }),
  'renderTemplate (data)': (input) =>
    renderTemplate({ v: '{{a}}', w: 'x {{a}} {{a|b}}', l: '{{list}}' }, { a: input, list: [input, input] }),
  'renderTemplate (template text)': (input) => rejectsTooLarge(() => renderTemplate({ v: `x ${input}` }, { a: input })),
  'slack (subject, sender name, text)': (input) => formatEmail('slack', mail(input)),
  'discord (html only)': (input) => formatEmail('discord', { ...mail(input), text: '', html: input }),
  teams: (input) => formatEmail('teams', mail(input)),
  telegram: (input) => formatEmail('telegram', mail(input), { options: { chat_id: '1' } }),
  pagerduty: (input) => formatEmail('pagerduty', mail(input), { options: { routing_key: 'k' } }),
  'custom template': (input) =>
    formatEmail('custom', mail(input), { template: { s: '{{subject}}', t: 'x {{text}} {{from.name}}' } }),
  'low-balance recharge hint (PUBLIC_URL)': (input) => rechargeHint(input),
  messageIdOf: (input) =>
    messageIdOf(
      { headers: [], subject: '', from: [], to: [], cc: [], attachments: [], messageId: `<${input}` },
      () => 'id',
    ),
  mailboxOf: (input) => mailboxOf(`${input}@mail.test.`, 'mail.test'),
  verifyAttachmentLink: (input) =>
    verifyAttachmentLink(Buffer.alloc(32), { id: 'id', expires: input, signature: input }, 0),
  'option keys (validateFormatConfig, redactOptions)': (input) => [
    validateFormatConfig({ format: 'slack', options: { [input]: 'v' } }),
    redactOptions({ [input]: 'v' }),
  ],
  'webhook header names and values': (input) => [checkHeaders({ [input]: 'v' }), checkHeaders({ a: input })],
  parseServerSpec: (input) => [
    parseServerSpec(input),
    parseServerSpec(`[${input}]:53`),
    parseServerSpec(`${input}:53`),
  ],
};

function mail(input: string): InboundEmailPayload {
  return {
    externalMessageId: input,
    receivedAt: '2026-01-01T00:00:00.000Z',
    from: { email: input, name: input },
    to: [],
    cc: [],
    subject: input,
    text: input,
    headers: {},
    attachments: [],
  };
}

/** A 1 MiB template text cannot render within 1 MiB: refused at once, never built. */
function rejectsTooLarge(render: () => unknown): void {
  try {
    render();
  } catch (error) {
    if (!(error instanceof TemplateTooLarge)) throw error;
  }
}

const HEAVY_SUBJECTS = new Set([
  'escapeMarkup',
  'htmlToText',
  'discord (html only)',
  'parsePlaceholders',
  'renderTemplate (data)',
  'renderTemplate (template text)',
  'custom template',
]);

/** Milliseconds of the faster of two runs: a GC pause or a busy core may stretch one. */
function timed(call: () => unknown, bound: number): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 2 && best > bound; attempt += 1) {
    const started = performance.now();
    call();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('linear on 1 MiB adversarial input', () => {
  for (const [subject, call] of Object.entries(SUBJECTS)) {
    const bound = HEAVY_SUBJECTS.has(subject) ? HEAVY_BOUND_MS : BOUND_MS;
    it(`${subject}: every shape of 1 MiB within ${bound} ms`, () => {
      call('warm-up');
      const slow: string[] = [];
      for (const [shape, input] of Object.entries(SHAPES)) {
        // Linear work on 1/16 of the input takes 1/16 of the time; quadratic, 1/256.
        const probe = timed(() => call(input.slice(0, input.length / 16)), bound / 16);
        if (probe > bound) {
          slow.push(`${shape}: ${Math.round(probe)} ms already at 64 KiB`);
          continue;
        }
        const full = timed(() => call(input), bound);
        if (full > bound) slow.push(`${shape}: ${Math.round(full)} ms`);
      }
      expect(slow).toStrictEqual([]);
    });
  }

  it('singleLine still joins lines and keeps other whitespace, and cuts a huge value before transforming it', () => {
    expect(singleLine('  Re:\r\n  weekly   report \n\n done ')).toBe('Re: weekly   report done');
    const line = singleLine(`a${' '.repeat(120_000)}\nb`);
    expect(line).toBe('a…');
    expect(singleLine(`${'x'.repeat(MB)}`)).toHaveLength(4096 + 1);
  });
});
