import { describe, expect, it } from 'vitest';
import {
  formatEmail,
  formatLowBalance,
  redactOptions,
  validateFormatConfig,
  type InboundEmailPayload,
  type LowBalanceEvent,
} from '../../../src/formats/index.js';

const payload: InboundEmailPayload = {
  externalMessageId: '<CAF=x1@mail.example.com>',
  receivedAt: '2025-03-14T09:26:53.000Z',
  from: { email: 'ada@example.com', name: 'Ada Lovelace' },
  to: [{ email: 'r_abcdefghijklmnop@mail.coinop.test' }],
  cc: [{ email: 'ops@example.com', name: 'Ops' }],
  subject: 'Build #42 failed',
  text: 'The nightly build failed.\r\nSee the log.',
  html: '<p>The nightly build <b>failed</b>.</p><p>See the log.</p>',
  headers: { 'message-id': '<CAF=x1@mail.example.com>', received: ['from a', 'from b'] },
  attachments: [
    {
      filename: 'build.log',
      contentType: 'text/plain',
      size: 2048,
      downloadUrl: 'https://coinop.test/attachments/abc',
      downloadUrlExpiresAt: '2025-03-14T10:26:53.000Z',
    },
  ],
  provider: 'smtp',
  url: 'https://coinop.test/mailbox/abcdefghijklmnop',
};

const mail = (overrides: Partial<InboundEmailPayload>): InboundEmailPayload => ({ ...payload, ...overrides });

const event: LowBalanceEvent = { wallet: 42, threshold: 50, token_hash: 'f00d', timestamp: '2025-03-14T09:30:00.000Z' };

/** True when no UTF-16 surrogate is left without its other half. */
const wellFormed = (s: string): boolean =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

const slackText = (p: InboundEmailPayload): string => (formatEmail('slack', p) as { text: string }).text;
const discordContent = (p: InboundEmailPayload): string => (formatEmail('discord', p) as { content: string }).content;
const telegramText = (p: InboundEmailPayload): string =>
  (formatEmail('telegram', p, { options: { chat_id: '-100123' } }) as { text: string }).text;

describe('formatEmail bodies', () => {
  it('sends the payload itself without a format', () => {
    expect(formatEmail(undefined, payload, {})).toBe(payload);
    expect(formatEmail(null, payload)).toBe(payload);
  });

  it('slack: bold subject, sender line, body', () => {
    expect(formatEmail('slack', payload, {})).toEqual({
      text: '*Build #42 failed*\nFrom: Ada Lovelace &lt;ada@example.com&gt;\nThe nightly build failed.\nSee the log.',
    });
  });

  it('discord: bold subject, sender line, body', () => {
    expect(formatEmail('discord', payload, {})).toEqual({
      content: '**Build #42 failed**\nFrom: Ada Lovelace <ada@example.com>\nThe nightly build failed.\nSee the log.',
    });
  });

  it('teams: message text plus an Adaptive Card', () => {
    expect(formatEmail('teams', payload, {})).toEqual({
      type: 'message',
      text: '**Build #42 failed**\nFrom: Ada Lovelace <ada@example.com>\nThe nightly build failed.\nSee the log.',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: 'Build #42 failed', wrap: true, weight: 'Bolder', size: 'Medium' },
              {
                type: 'TextBlock',
                text: 'From: Ada Lovelace <ada@example.com>',
                wrap: true,
                isSubtle: true,
                spacing: 'None',
              },
              { type: 'TextBlock', text: 'The nightly build failed.\nSee the log.', wrap: true },
            ],
          },
        },
      ],
    });
  });

  it('telegram: chat_id from options, HTML parse mode, escaped text', () => {
    expect(formatEmail('telegram', payload, { options: { chat_id: '-100123' } })).toEqual({
      chat_id: '-100123',
      text: '<b>Build #42 failed</b>\nFrom: Ada Lovelace &lt;ada@example.com&gt;\nThe nightly build failed.\nSee the log.',
      parse_mode: 'HTML',
    });
  });

  it('pagerduty: Events API v2 trigger', () => {
    expect(formatEmail('pagerduty', payload, { options: { routing_key: 'R0UT1NG' } })).toEqual({
      routing_key: 'R0UT1NG',
      event_action: 'trigger',
      dedup_key: '<CAF=x1@mail.example.com>',
      payload: {
        summary: 'Build #42 failed',
        source: 'ada@example.com',
        severity: 'info',
        timestamp: '2025-03-14T09:26:53.000Z',
        custom_details: { text: 'The nightly build failed.\nSee the log.', from_name: 'Ada Lovelace' },
      },
    });
  });

  it('custom: the template filled from the payload', () => {
    const template = {
      title: '{{subject}}',
      sender: '{{from.name|from.email}}',
      files: '{{attachments}}',
      first: '{{attachments[0].filename|"none"}}',
      line: '{{from.email}} sent {{attachments.length}} file(s)',
    };
    expect(formatEmail('custom', payload, { template })).toEqual({
      title: 'Build #42 failed',
      sender: 'Ada Lovelace',
      files: payload.attachments,
      first: 'build.log',
      line: 'ada@example.com sent 1 file(s)',
    });
  });

  it('custom without a saved template still delivers the payload', () => {
    expect(formatEmail('custom', payload, {})).toBe(payload);
    expect(formatEmail('custom', payload, { template: null })).toBe(payload);
  });
});

describe('formatEmail text rules', () => {
  it('shows the bare address when the sender has no name', () => {
    const noName = mail({ from: { email: 'bot@example.com' } });
    expect(slackText(noName)).toBe(
      '*Build #42 failed*\nFrom: bot@example.com\nThe nightly build failed.\nSee the log.',
    );
    expect(discordContent(mail({ from: { email: 'bot@example.com', name: '  ' } }))).toContain(
      '\nFrom: bot@example.com\n',
    );
    const event = formatEmail('pagerduty', noName, { options: { routing_key: 'k' } }) as {
      payload: { custom_details: object };
    };
    expect(event.payload.custom_details).toEqual({ text: 'The nightly build failed.\nSee the log.' });
  });

  it('writes (no subject) for an empty subject and keeps subjects on one line', () => {
    expect(discordContent(mail({ subject: '' }))).toMatch(/^\*\*\(no subject\)\*\*\n/);
    expect(discordContent(mail({ subject: 'Line one\r\n  line two' }))).toMatch(/^\*\*Line one line two\*\*\n/);
    const event = formatEmail('pagerduty', mail({ subject: ' ' }), { options: { routing_key: 'k' } }) as {
      payload: { summary: string };
    };
    expect(event.payload.summary).toBe('(no subject)');
  });

  it('uses the HTML part reduced to text when there is no text part', () => {
    const html = [
      '<!DOCTYPE html><html><head><title>Ignored</title><style>p { color: red }</style></head><body>',
      '<script>alert("x")</script><!-- a comment -->',
      '<h1>Weekly   report</h1>\n<p>Caf&eacute; &amp; tea &lt;3 &#8364;5 &#x1F600;</p>',
      '<ul><li>One</li><li>Two</li></ul>',
      '<a href="https://x.test" title="a>b">link</a> and&nbsp;more<br>next line',
      '<table><tr><td>A</td><td>B</td></tr></table>',
      '</body></html>',
    ].join('');
    const body = 'Weekly report\n\nCafé & tea <3 €5 😀\n\n- One\n- Two\n\nlink and more\nnext line\n\nA B';
    expect(discordContent(mail({ text: '', html }))).toBe(
      `**Build #42 failed**\nFrom: Ada Lovelace <ada@example.com>\n${body}`,
    );
    expect(telegramText(mail({ text: '  \n', html: '<p>1 &lt; 2 &amp;&amp; 3 &gt; 2</p>' }))).toMatch(
      /\n1 &lt; 2 &amp;&amp; 3 &gt; 2$/,
    );
  });

  it('ends after the sender line when the mail has no body at all', () => {
    const empty = mail({ text: '', html: undefined });
    expect(slackText(empty)).toBe('*Build #42 failed*\nFrom: Ada Lovelace &lt;ada@example.com&gt;');
    const card = formatEmail('teams', empty) as { attachments: [{ content: { body: unknown[] } }] };
    expect(card.attachments[0].content.body).toHaveLength(2);
  });

  it('defuses discord mentions (@everyone, @here, users and roles) with a look-alike @ of the same length', () => {
    const content = discordContent(
      mail({
        subject: '@everyone down',
        from: { email: 'x@here.test', name: '<@&123>' },
        text: 'ping @Here and <@456> and <@!789>; mail ada@example.com',
      }),
    );
    expect(content).toBe(
      '**＠everyone down**\nFrom: <＠&123> <x＠here.test>\nping ＠Here and <＠456> and <＠!789>; mail ada@example.com',
    );
    expect(content).not.toMatch(/@(everyone|here)|<@/i);
    // The same length: a body cut at the limit stays within it.
    const long = discordContent(mail({ text: '@everyone '.repeat(300) }));
    expect(long.length).toBeLessThanOrEqual(2000);
    expect(long).not.toContain('@everyone');
  });

  it('escapes &, < and > for slack so mail cannot inject mentions or links', () => {
    const text = slackText(mail({ subject: 'Q&A <now>', text: 'ping <!channel> & <https://evil.test|click>' }));
    expect(text).toBe(
      '*Q&amp;A &lt;now&gt;*\nFrom: Ada Lovelace &lt;ada@example.com&gt;\nping &lt;!channel&gt; &amp; &lt;https://evil.test|click&gt;',
    );
  });

  it('escapes HTML for telegram so mail cannot inject tags', () => {
    const text = telegramText(mail({ subject: '<b>x</b> & co', text: '<a href="https://evil.test">click</a>' }));
    expect(text).toBe(
      '<b>&lt;b&gt;x&lt;/b&gt; &amp; co</b>\nFrom: Ada Lovelace &lt;ada@example.com&gt;\n&lt;a href="https://evil.test"&gt;click&lt;/a&gt;',
    );
  });
});

describe('formatEmail truncation', () => {
  const head = (format: 'slack' | 'telegram'): string =>
    format === 'slack'
      ? '*Build #42 failed*\nFrom: Ada Lovelace &lt;ada@example.com&gt;\n'
      : '<b>Build #42 failed</b>\nFrom: Ada Lovelace &lt;ada@example.com&gt;\n';

  it('slack: body cut to 3,000 characters with …, never splitting an emoji', () => {
    expect(slackText(mail({ text: 'a'.repeat(3000) }))).toBe(head('slack') + 'a'.repeat(3000));
    const text = slackText(mail({ text: `${'a'.repeat(2998)}😀 tail` }));
    expect(text).toBe(`${head('slack')}${'a'.repeat(2998)}…`);
    expect(wellFormed(text)).toBe(true);
  });

  it('slack: counts escapes in the limit and never cuts inside one', () => {
    const text = slackText(mail({ text: `${'a'.repeat(2996)}&&&` }));
    expect(text).toBe(`${head('slack')}${'a'.repeat(2996)}…`);
    const fits = slackText(mail({ text: `${'a'.repeat(2995)}&` }));
    expect(fits).toBe(`${head('slack')}${'a'.repeat(2995)}&amp;`);
  });

  it('discord: the whole content stays within 2,000 characters', () => {
    const content = discordContent(mail({ text: '😀'.repeat(2000) }));
    expect(content.length).toBeLessThanOrEqual(2000);
    expect(content.length).toBeGreaterThan(1990);
    expect(content.endsWith('😀…')).toBe(true);
    expect(wellFormed(content)).toBe(true);
    // Exactly at the limit: nothing is cut.
    const prefix = '**Build #42 failed**\nFrom: Ada Lovelace <ada@example.com>\n';
    expect(discordContent(mail({ text: 'b'.repeat(2000 - prefix.length) }))).toHaveLength(2000);
  });

  it('discord: a huge subject is capped so the body keeps room', () => {
    const content = discordContent(mail({ subject: 'S'.repeat(10_000), text: 'body '.repeat(1000) }));
    expect(content.length).toBeLessThanOrEqual(2000);
    expect(content.startsWith(`**${'S'.repeat(255)}…**\n`)).toBe(true);
    expect(content).toContain('\nbody body');
  });

  it('telegram: at most 4,096 characters, never cut inside an entity or a surrogate pair', () => {
    const budget = 4096 - head('telegram').length;
    const text = telegramText(mail({ text: `${'a'.repeat(budget - 3)}<👍>` }));
    expect(text).toBe(`${head('telegram')}${'a'.repeat(budget - 3)}…`);
    const emoji = telegramText(mail({ text: '👍&'.repeat(3000) }));
    expect(emoji.length).toBeLessThanOrEqual(4096);
    expect(wellFormed(emoji)).toBe(true);
    expect(emoji).toMatch(/(&amp;|👍)…$/);
    expect(emoji.match(/<b>|<\/b>/g)).toEqual(['<b>', '</b>']);
  });

  it('teams: body cut to 3,000 characters in both the text and the card', () => {
    const body = formatEmail('teams', mail({ text: `${'a'.repeat(2999)}👍` })) as {
      text: string;
      attachments: [{ content: { body: [unknown, unknown, { text: string }] } }];
    };
    expect(body.attachments[0].content.body[2].text).toBe(`${'a'.repeat(2999)}…`);
    expect(body.text.endsWith(`\n${'a'.repeat(2999)}…`)).toBe(true);
  });

  it('pagerduty: summary at most 1,024 characters, emoji kept whole', () => {
    const event = formatEmail('pagerduty', mail({ subject: `${'s'.repeat(1022)}🚨🚨` }), {
      options: { routing_key: 'k' },
    }) as {
      payload: { summary: string };
    };
    expect(event.payload.summary).toBe(`${'s'.repeat(1022)}…`);
    const exact = formatEmail('pagerduty', mail({ subject: `${'s'.repeat(1022)}🚨` }), {
      options: { routing_key: 'k' },
    }) as {
      payload: { summary: string };
    };
    expect(exact.payload.summary).toBe(`${'s'.repeat(1022)}🚨`);
  });

  it('keeps a family emoji whole rather than cutting inside its joiners', () => {
    const family = '👨‍👩‍👧';
    const text = slackText(mail({ text: `${'a'.repeat(2995)}${family}` }));
    expect(text).toBe(`${head('slack')}${'a'.repeat(2995)}…`);
  });
});

describe('formatLowBalance', () => {
  const hint = 'Recharge: GET /recharge';
  const sentence = 'Wallet balance 42 is at or below the threshold 50.';

  it('sends the low_balance object without a format', () => {
    expect(formatLowBalance(undefined, event, {})).toEqual({
      type: 'low_balance',
      wallet: 42,
      threshold: 50,
      token_hash: 'f00d',
      timestamp: '2025-03-14T09:30:00.000Z',
    });
  });

  it('slack, discord and telegram use their bold title, the sentence and the hint', () => {
    expect(formatLowBalance('slack', event)).toEqual({ text: `*Low balance*\n${sentence}\n${hint}` });
    expect(formatLowBalance('discord', event)).toEqual({ content: `**Low balance**\n${sentence}\n${hint}` });
    expect(formatLowBalance('telegram', event, { options: { chat_id: '7' } })).toEqual({
      chat_id: '7',
      text: `<b>Low balance</b>\n${sentence}\n${hint}`,
      parse_mode: 'HTML',
    });
  });

  it('names the full recharge address when the public URL is known', () => {
    expect(formatLowBalance('slack', event, { publicUrl: 'https://coinop.example/' })).toEqual({
      text: `*Low balance*\n${sentence}\nRecharge: GET https://coinop.example/recharge`,
    });
  });

  it('teams: text and Adaptive Card', () => {
    expect(formatLowBalance('teams', event)).toEqual({
      type: 'message',
      text: `**Low balance**\n${sentence}\n${hint}`,
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: 'Low balance', wrap: true, weight: 'Bolder', size: 'Medium' },
              { type: 'TextBlock', text: sentence, wrap: true, isSubtle: true, spacing: 'None' },
              { type: 'TextBlock', text: hint, wrap: true },
            ],
          },
        },
      ],
    });
  });

  it('pagerduty: one incident per crossing, from coinop, titled Low balance', () => {
    expect(formatLowBalance('pagerduty', event, { options: { routing_key: 'R' } })).toEqual({
      routing_key: 'R',
      event_action: 'trigger',
      dedup_key: 'low-balance-f00d-2025-03-14T09:30:00.000Z',
      payload: {
        summary: `Low balance: ${sentence}`,
        source: 'coinop',
        severity: 'warning',
        timestamp: '2025-03-14T09:30:00.000Z',
        custom_details: { wallet: 42, threshold: 50, token_hash: 'f00d', recharge: hint },
      },
    });
  });

  it('custom: the template filled from the event', () => {
    const template = {
      alert: 'Balance {{wallet}} (limit {{threshold}})',
      wallet: '{{wallet}}',
      who: '{{token_hash}}',
      kind: '{{type}}',
    };
    expect(formatLowBalance('custom', event, { template })).toEqual({
      alert: 'Balance 42 (limit 50)',
      wallet: 42,
      who: 'f00d',
      kind: 'low_balance',
    });
  });
});

describe('validateFormatConfig', () => {
  it('accepts no format and every known format with its requirements', () => {
    expect(validateFormatConfig({})).toBeNull();
    expect(validateFormatConfig({ format: '' })).toBeNull();
    expect(validateFormatConfig({ format: null, options: {} })).toBeNull();
    expect(validateFormatConfig({ format: 'slack' })).toBeNull();
    expect(validateFormatConfig({ format: 'discord', options: { note: 'x' } })).toBeNull();
    expect(validateFormatConfig({ format: 'teams' })).toBeNull();
    expect(validateFormatConfig({ format: 'telegram', options: { chat_id: '-100123' } })).toBeNull();
    expect(validateFormatConfig({ format: 'pagerduty', options: { routing_key: 'R0UT1NG' } })).toBeNull();
    expect(validateFormatConfig({ format: 'custom', template: { subject: '{{subject}}' } })).toBeNull();
  });

  it('rejects an unknown format', () => {
    expect(validateFormatConfig({ format: 'SLACK' })).toBe(
      'Invalid format: must be one of slack, discord, teams, telegram, pagerduty, custom',
    );
  });

  it('requires routing_key for pagerduty, chat_id for telegram, a template for custom', () => {
    expect(validateFormatConfig({ format: 'pagerduty' })).toBe(
      'Invalid format: pagerduty requires options.routing_key',
    );
    expect(validateFormatConfig({ format: 'pagerduty', options: { routing_key: ' ' } })).toBe(
      'Invalid format: pagerduty requires options.routing_key',
    );
    expect(validateFormatConfig({ format: 'telegram', options: {} })).toBe(
      'Invalid format: telegram requires options.chat_id',
    );
    expect(validateFormatConfig({ format: 'custom' })).toBe('Invalid format: custom requires a template');
    expect(validateFormatConfig({ format: 'custom', template: null })).toBe(
      'Invalid format: custom requires a template',
    );
  });

  it('passes template errors through, whatever the format', () => {
    expect(validateFormatConfig({ format: 'custom', template: { a: '{{x' } })).toBe(
      'Invalid template: unterminated placeholder at "{{x"',
    );
    expect(validateFormatConfig({ format: 'custom', template: [] })).toBe('Invalid template: must be a JSON object');
    expect(validateFormatConfig({ format: 'slack', template: { a: '{{}}' } })).toBe(
      'Invalid template: empty placeholder at "{{}}"',
    );
  });

  it('limits options to 10 string values of at most 500 characters', () => {
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'v']));
    expect(validateFormatConfig({ options: ten })).toBeNull();
    expect(validateFormatConfig({ options: { ...ten, k10: 'v' } })).toBe('Invalid options: at most 10 keys');
    expect(validateFormatConfig({ options: { chat_id: 42 } })).toBe('Invalid options: chat_id must be a string');
    expect(validateFormatConfig({ options: { note: 'x'.repeat(500) } })).toBeNull();
    // Counted in characters: 500 emoji are 1,000 UTF-16 units but fit.
    expect(validateFormatConfig({ options: { note: '😀'.repeat(500) } })).toBeNull();
    expect(validateFormatConfig({ options: { note: 'x'.repeat(501) } })).toBe(
      'Invalid options: note must be at most 500 characters',
    );
  });
});

describe('redactOptions', () => {
  it('masks keys naming secrets and shows the rest', () => {
    expect(
      redactOptions({
        chat_id: '-100123',
        routing_key: 'R0UT1NG',
        bot_token: 't',
        clientSecret: 's',
        PASSWORD: 'p',
        apiKey: 'k',
        channel: '#ops',
      }),
    ).toEqual({
      chat_id: '-100123',
      routing_key: '***',
      bot_token: '***',
      clientSecret: '***',
      PASSWORD: '***',
      apiKey: '***',
      channel: '#ops',
    });
  });

  it('returns an empty object for absent options and keeps a __proto__ key a plain key', () => {
    expect(redactOptions(undefined)).toEqual({});
    const options = JSON.parse('{"__proto__": "x", "secret": "y"}') as Record<string, string>;
    const out = redactOptions(options);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'secret']);
  });
});
