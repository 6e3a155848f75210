import { describe, expect, it } from 'vitest';
import {
  applySizeRule,
  capForTemplate,
  fitJsonString,
  jsonBytes,
  jsonStringBytes,
} from '../../../src/features/mail/size-rule.js';
import type { InboundEmailPayload } from '../../../src/formats/index.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

function payload(overrides: Partial<InboundEmailPayload> = {}): InboundEmailPayload {
  return {
    externalMessageId: 'id@x',
    receivedAt: '2026-06-01T12:00:00.000Z',
    from: { email: 'a@x', name: 'A' },
    to: [{ email: 'r_aaaaaaaaaaaaaaaa@hooks.test' }],
    cc: [],
    subject: 'subject',
    text: 'text',
    headers: { subject: 'subject' },
    attachments: [],
    provider: 'smtp',
    ...overrides,
  };
}

const SAMPLES = [
  '',
  'plain',
  'quote " and \\ backslash',
  'ctrl \u0000\u0001\b\t\n\f\r\u001f',
  'é€😀',
  'lone \ud800 high',
  'lone \udc00 low',
  'pair \ud83d\ude00',
  '\u2028\u2029',
  'a\ud83d',
];

describe('JSON string sizes', () => {
  it.each(SAMPLES)('jsonStringBytes(%j) is the UTF-8 length of JSON.stringify', (sample) => {
    expect(jsonStringBytes(sample)).toBe(bytes(sample));
  });

  it('matches JSON.stringify on random strings of every kind of code unit', () => {
    for (let round = 0; round < 200; round++) {
      const units = Array.from({ length: 50 }, () => {
        const pick = Math.random();
        if (pick < 0.1) return Math.floor(Math.random() * 0x20);
        if (pick < 0.2) return 0xd800 + Math.floor(Math.random() * 0x800);
        if (pick < 0.5) return Math.floor(Math.random() * 0x80);
        return Math.floor(Math.random() * 0x10000);
      });
      const s = String.fromCharCode(...units);
      expect(jsonStringBytes(s)).toBe(bytes(s));
    }
  });

  it('fitJsonString keeps the longest prefix within the budget and never splits a surrogate pair', () => {
    expect(fitJsonString('abcdef', 5)).toBe('abc');
    expect(fitJsonString('😀😀', 2 + 4 + 3)).toBe('😀');
    expect(fitJsonString('a"b', 4)).toBe('a');
    expect(fitJsonString('abc', 1)).toBe('');
    for (const sample of SAMPLES) {
      for (let budget = 2; budget <= bytes(sample); budget++) {
        const cut = fitJsonString(sample, budget);
        expect(sample.startsWith(cut)).toBe(true);
        expect(bytes(cut)).toBeLessThanOrEqual(budget);
        const longer = sample.slice(
          0,
          cut.length +
            (/[\ud800-\udbff]/.test(sample[cut.length] ?? '') && /[\udc00-\udfff]/.test(sample[cut.length + 1] ?? '')
              ? 2
              : 1),
        );
        if (longer.length > cut.length) expect(bytes(longer)).toBeGreaterThan(budget);
      }
    }
  });
});

describe('the 1 MiB rule', () => {
  const LIMIT = 2000;

  it('leaves a payload within the limit untouched and unmarked', () => {
    const p = payload({ text: 'x'.repeat(100) });
    expect(applySizeRule(p, LIMIT)).toStrictEqual({ payload: p, truncated: false, json: JSON.stringify(p) });
  });

  it('returns the JSON of what it kept, the bytes that are measured being the bytes delivered', () => {
    const out = applySizeRule(payload({ html: 'h'.repeat(1500), text: 't'.repeat(1500) }), LIMIT);
    expect(out.json).toBe(JSON.stringify(out.payload));
    expect(Buffer.byteLength(out.json)).toBe(LIMIT);
  });

  it.each([false, true])(
    'counts a truncated flag already present (%s) in place, still cutting to the exact limit',
    (flag) => {
      const { payload: out } = applySizeRule(payload({ truncated: flag, text: 't'.repeat(3000) }), LIMIT);
      expect(out.truncated).toBe(true);
      expect(jsonBytes(out)).toBe(LIMIT);
    },
  );

  it('drops attachment metadata from the end first, and stops as soon as it fits', () => {
    const attachments = Array.from({ length: 60 }, (_, i) => ({
      filename: `file-${i}.txt`,
      contentType: 'text/plain',
      size: i,
    }));
    const p = payload({ attachments, html: '<p>keep me</p>', text: 'keep me too' });
    const { payload: out, truncated } = applySizeRule(p, LIMIT);
    expect(truncated).toBe(true);
    expect(out.truncated).toBe(true);
    expect(out.html).toBe('<p>keep me</p>');
    expect(out.text).toBe('keep me too');
    expect(out.attachments).toStrictEqual(attachments.slice(0, out.attachments.length));
    expect(jsonBytes(out)).toBeLessThanOrEqual(LIMIT);
    // One more attachment would not have fitted.
    expect(jsonBytes({ ...out, attachments: attachments.slice(0, out.attachments.length + 1) })).toBeGreaterThan(LIMIT);
    expect(out.attachments.length).toBeGreaterThan(0);
    expect(p.attachments).toHaveLength(60); // the input is not changed
  });

  it('then cuts html as little as needed, leaving text whole when that suffices', () => {
    const html = 'h'.repeat(1500);
    const text = 't'.repeat(1500);
    const { payload: out } = applySizeRule(payload({ attachments: [{ filename: 'a', size: 1 }], html, text }), LIMIT);
    expect(out.attachments).toStrictEqual([]);
    expect(out.text).toBe(text);
    expect(out.html).toBe(html.slice(0, out.html?.length));
    expect(out.html?.length).toBeGreaterThan(0);
    expect(jsonBytes(out)).toBe(LIMIT);
  });

  it('cuts text only once html is empty', () => {
    const text = 't'.repeat(3000);
    const { payload: out } = applySizeRule(payload({ html: 'é'.repeat(1000), text }), LIMIT);
    expect(out.html).toBe('');
    expect(out.text).toBe(text.slice(0, out.text.length));
    expect(out.text.length).toBeGreaterThan(1000);
    expect(jsonBytes(out)).toBe(LIMIT);
  });

  it('as a last resort empties headers and raw, then shortens subject and address lists', () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ email: `person${i}@example.test` }));
    const { payload: out } = applySizeRule(
      payload({
        headers: { received: 'r'.repeat(3000) },
        raw: { big: 'x'.repeat(3000) },
        to: many,
        cc: many,
        subject: 's'.repeat(5000),
      }),
      20_000,
    );
    expect(out.headers).toStrictEqual({});
    expect(out).not.toHaveProperty('raw');
    expect(out.to).toHaveLength(100);
    expect(out.subject).toHaveLength(998);
    expect(jsonBytes(out)).toBeLessThanOrEqual(20_000);
  });
});

describe('capping a payload for a custom template', () => {
  const LIMIT = 2000;
  const attachments = [{ filename: 'a.pdf', contentType: 'application/pdf', size: 40 }];

  it('cuts text and html longer than the whole limit to it, and leaves the rest to the template', () => {
    const p = payload({ html: 'é'.repeat(5000), text: 't'.repeat(100), attachments });
    const measured: string[] = [];
    const out = capForTemplate(p, LIMIT, (s) => {
      measured.push(s);
      return jsonStringBytes(s);
    });
    expect(jsonStringBytes(out.html ?? '')).toBeLessThanOrEqual(LIMIT);
    expect(out.html).toBe('é'.repeat(999));
    expect(out.text).toBe(p.text);
    expect(out.attachments).toStrictEqual(attachments);
    expect(out).not.toHaveProperty('truncated');
    expect(p.html).toHaveLength(5000); // the caller's payload is not changed
    expect(measured).toStrictEqual([p.text, p.html]); // through the caller's measure (a memo shared by mailboxes)
  });
});
