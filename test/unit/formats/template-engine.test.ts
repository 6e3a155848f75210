import { describe, expect, it } from 'vitest';
import { renderTemplate, validateTemplate } from '../../../src/formats/template-engine.js';

const mail = {
  externalMessageId: 'msg-1',
  subject: 'Invoice 42',
  text: '',
  html: '<p>Hello</p>',
  from: { email: 'ada@example.com', name: 'Ada Lovelace' },
  to: [{ email: 'r_abc@mail.test' }, { email: 'b@example.com', name: 'Bee' }],
  attachments: [
    { filename: 'a.pdf', size: 1024 },
    { filename: 'b.png', size: 2048 },
  ],
  headers: { 'x-mailer': 'Mutt', received: ['one', 'two'] },
  size: 3072,
  flagged: true,
  nothing: null,
};

const fill = (value: string): unknown => (renderTemplate({ v: value }, mail) as { v: unknown }).v;

describe('renderTemplate grammar', () => {
  it('reads dot paths', () => {
    expect(fill('{{from.email}}')).toBe('ada@example.com');
    expect(fill('{{headers.x-mailer}}')).toBe('Mutt');
    expect(renderTemplate({ v: '{{from.名前}} {{$id}}' }, { from: { 名前: 'Ada' }, $id: 7 })).toEqual({ v: 'Ada 7' });
  });

  it('reads array indices, negative ones counting from the end', () => {
    expect(fill('{{attachments[0].filename}}')).toBe('a.pdf');
    expect(fill('{{attachments[1].filename}}')).toBe('b.png');
    expect(fill('{{attachments[-1].filename}}')).toBe('b.png');
    expect(fill('{{attachments[-2].filename}}')).toBe('a.pdf');
    expect(fill('{{headers.received[-1]}}')).toBe('two');
  });

  it('treats an out-of-range index, or an index on a non-array, as missing', () => {
    expect(fill('{{attachments[2].filename}}')).toBe('');
    expect(fill('{{attachments[-3].filename}}')).toBe('');
    expect(fill('{{from[0]}}')).toBe('');
    expect(fill('{{attachments[5]|"none"}}')).toBe('none');
  });

  it('takes the first non-empty alternative of a chain', () => {
    expect(fill('{{text|html}}')).toBe('<p>Hello</p>');
    expect(fill('{{missing|nothing|text|from.name}}')).toBe('Ada Lovelace');
    expect(fill('{{subject|html|"x"}}')).toBe('Invoice 42');
  });

  it('falls back to a quoted literal, keeping spaces, pipes and escaped quotes inside it', () => {
    expect(fill('{{to[0].name|"no name given"}}')).toBe('no name given');
    expect(fill('{{missing|"a | b"}}')).toBe('a | b');
    expect(fill('{{missing|"say \\"hi\\" }}"}}')).toBe('say "hi" }}');
    expect(fill('{{missing|""}}')).toBe('');
  });

  it('tolerates whitespace around alternatives and inside brackets', () => {
    expect(fill('{{  from.email  }}')).toBe('ada@example.com');
    expect(fill('{{ missing | "x" }}')).toBe('x');
    expect(fill('{{attachments[ -1 ].filename}}')).toBe('b.png');
    expect(fill('{{\n text |\t html }}')).toBe('<p>Hello</p>');
  });

  it('renders a missing path without fallback as an empty string', () => {
    expect(fill('{{no.such.path}}')).toBe('');
    expect(fill('From {{no.such.path}}!')).toBe('From !');
    expect(fill('{{nothing}}')).toBe('');
  });

  it('leaves text outside placeholders as written', () => {
    expect(fill('{ not a placeholder } }}')).toBe('{ not a placeholder } }}');
    expect(fill('Mail from {{from.name}} <{{from.email}}>')).toBe('Mail from Ada Lovelace <ada@example.com>');
  });
});

describe('renderTemplate types', () => {
  it('keeps the JSON type of a value when the string is exactly one placeholder', () => {
    expect(fill('{{size}}')).toBe(3072);
    expect(fill('{{flagged}}')).toBe(true);
    expect(fill('{{from}}')).toEqual({ email: 'ada@example.com', name: 'Ada Lovelace' });
    expect(fill('{{attachments}}')).toEqual(mail.attachments);
    expect(fill('{{attachments.length}}')).toBe(2);
  });

  it('writes numbers, booleans and JSON inside longer text', () => {
    expect(fill('size={{size}} flagged={{flagged}}')).toBe('size=3072 flagged=true');
    expect(fill('to: {{to[0]}}')).toBe('to: {"email":"r_abc@mail.test"}');
    expect(fill(' {{size}}')).toBe(' 3072');
  });

  it('does not alias objects of the data', () => {
    const out = fill('{{from}}') as { email: string };
    out.email = 'changed';
    expect(mail.from.email).toBe('ada@example.com');
  });

  it('fills nested objects and arrays, leaving keys and non-string values alone', () => {
    const template = {
      '{{subject}}': 1,
      blocks: [{ type: 'header', text: '{{subject}}' }, ['{{from.email}}', 7, null, false]],
      meta: { deep: { id: '{{externalMessageId}}', count: '{{attachments.length}}' } },
    };
    expect(renderTemplate(template, mail)).toEqual({
      '{{subject}}': 1,
      blocks: [{ type: 'header', text: 'Invoice 42' }, ['ada@example.com', 7, null, false]],
      meta: { deep: { id: 'msg-1', count: 2 } },
    });
  });

  it('renders low-balance placeholders', () => {
    const event = { wallet: 42, threshold: 50, token_hash: 'ab12', timestamp: '2025-01-01T00:00:00.000Z' };
    expect(
      renderTemplate({ msg: 'Balance {{wallet}} <= {{threshold}}', n: '{{wallet}}', h: '{{token_hash}}' }, event),
    ).toEqual({
      msg: 'Balance 42 <= 50',
      n: 42,
      h: 'ab12',
    });
  });

  it('keeps an unparseable string as written instead of failing', () => {
    expect(fill('{{from.email')).toBe('{{from.email');
  });
});

describe('renderTemplate security', () => {
  it('resolves prototype paths to nothing', () => {
    expect(fill('{{__proto__}}')).toBe('');
    expect(fill('{{constructor}}')).toBe('');
    expect(fill('{{constructor.name}}')).toBe('');
    expect(fill('{{from.constructor.prototype}}')).toBe('');
    expect(fill('{{to.__proto__.length}}')).toBe('');
    expect(fill('{{toString}}')).toBe('');
    expect(fill('{{from.hasOwnProperty|"safe"}}')).toBe('safe');
  });

  it('ignores an own __proto__ key of parsed JSON data', () => {
    const data = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}') as unknown;
    expect(renderTemplate({ v: '{{__proto__.polluted}}' }, data)).toEqual({ v: '' });
  });

  it('cannot pollute prototypes through template keys', () => {
    const template = JSON.parse(
      '{"__proto__": {"polluted": "{{subject}}"}, "constructor": {"prototype": "x"}}',
    ) as unknown;
    const out = renderTemplate(template, mail) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: 'Invoice 42' });
  });

  it('never evaluates code: call-like placeholders do not parse and stay as written', () => {
    expect(fill('{{from.email.toUpperCase()}}')).toBe('{{from.email.toUpperCase()}}');
    expect(validateTemplate({ v: '{{ process.exit(1) }}' })).toBe(
      'Invalid template: unexpected character "(" at "{{ process.exit(1) }}"',
    );
    expect(validateTemplate({ v: '{{a+b}}' })).toMatch(/^Invalid template: unexpected character "\+"/);
  });
});

describe('validateTemplate', () => {
  it('accepts every grammar form', () => {
    expect(
      validateTemplate({
        a: '{{from.email}} {{attachments[0].filename}} {{attachments[-1].filename}}',
        b: '{{text|html|"none"}}',
        c: ['{{ from.name | "a | b" }}', 1, true, null, { d: 'plain' }],
      }),
    ).toBeNull();
  });

  it('rejects an unterminated placeholder, naming it', () => {
    expect(validateTemplate({ a: 'Hi {{from.email' })).toBe(
      'Invalid template: unterminated placeholder at "{{from.email"',
    );
    expect(validateTemplate({ a: '{{from.email} x' })).toBe(
      'Invalid template: unterminated placeholder at "{{from.email} x"',
    );
  });

  it('rejects empty placeholders and empty fallbacks', () => {
    expect(validateTemplate({ a: '{{}}' })).toBe('Invalid template: empty placeholder at "{{}}"');
    expect(validateTemplate({ a: '{{  }}' })).toBe('Invalid template: empty placeholder at "{{  }}"');
    expect(validateTemplate({ a: '{{a||b}}' })).toBe('Invalid template: empty fallback at "{{a||b}}"');
    expect(validateTemplate({ a: '{{a|}}' })).toBe('Invalid template: empty fallback at "{{a|}}"');
  });

  it('rejects bad indices', () => {
    expect(validateTemplate({ a: '{{attachments[x]}}' })).toBe('Invalid template: bad index at "{{attachments[x]}}"');
    expect(validateTemplate({ a: '{{attachments[]}}' })).toMatch(/bad index/);
    expect(validateTemplate({ a: '{{attachments[1.5]}}' })).toMatch(/bad index/);
    expect(validateTemplate({ a: '{{attachments[1234567890]}}' })).toMatch(/bad index/);
    expect(validateTemplate({ a: '{{attachments[0}}' })).toMatch(/bad index/);
  });

  it('rejects an unterminated literal and stray characters', () => {
    expect(validateTemplate({ a: '{{from.name|"oops}}' })).toBe(
      'Invalid template: unterminated literal at "{{from.name|\\"oops}}"',
    );
    expect(validateTemplate({ a: '{{from name}}' })).toBe(
      'Invalid template: unexpected character "n" at "{{from name}}"',
    );
    expect(validateTemplate({ a: '{{from.}}' })).toMatch(/missing name after/);
  });

  it('finds errors in nested strings and shortens long excerpts', () => {
    expect(validateTemplate({ a: { b: ['ok', '{{x'] } })).toBe('Invalid template: unterminated placeholder at "{{x"');
    const error = validateTemplate({ a: `{{${'a'.repeat(100)}` });
    expect(error).toBe(`Invalid template: unterminated placeholder at "{{${'a'.repeat(38)}…"`);
  });

  it('limits the size to 2048 bytes of UTF-8 JSON', () => {
    // {"a":"…"} is 8 bytes of framing.
    expect(validateTemplate({ a: 'x'.repeat(2040) })).toBeNull();
    expect(validateTemplate({ a: 'x'.repeat(2041) })).toBe('Invalid template: must be at most 2048 bytes');
    // é is two bytes in UTF-8 though one character.
    expect(validateTemplate({ a: 'é'.repeat(1021) })).toBe('Invalid template: must be at most 2048 bytes');
  });

  it('allows 5 nesting levels, the top object being level 1', () => {
    expect(validateTemplate({ l2: { l3: [{ l5: { scalar: 1 } }] } })).toBeNull();
    expect(validateTemplate({ l2: { l3: [{ l5: { l6: {} } }] } })).toBe(
      'Invalid template: nesting deeper than 5 levels',
    );
    expect(validateTemplate({ l2: [[[[[]]]]] })).toBe('Invalid template: nesting deeper than 5 levels');
    expect(validateTemplate({ l2: [[[[1]]]] })).toBeNull();
  });

  it('requires a JSON object', () => {
    for (const bad of [null, undefined, 'text', 42, ['{{a}}'], new Date()]) {
      expect(validateTemplate(bad)).toBe('Invalid template: must be a JSON object');
    }
    expect(validateTemplate({ a: () => 1 })).toBe('Invalid template: values must be JSON');
    expect(validateTemplate({ a: Number.NaN })).toBe('Invalid template: values must be JSON');
  });

  it('reports a cyclic object instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(validateTemplate(cyclic)).toBe('Invalid template: must be JSON');
  });
});
