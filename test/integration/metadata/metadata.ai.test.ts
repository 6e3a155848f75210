import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { startHttpsReceiver } from '../../helpers/https-receiver.js';
import type { HttpsReceiver, ScriptedResponse } from '../../helpers/https-receiver.js';
import { useAppWith } from '../../fixtures/override-app.js';
import { RICH_ARTICLE_SENTENCES } from '../../fixtures/metadata-pages.js';
import { analyze, hits, useSites } from './sites.js';
import { POOL_SIZES, WALLET_BUSY } from '../../../src/outbound/pools.js';

const wordCount = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;

function completion(content: string, model = 'test-model'): ScriptedResponse {
  return {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_780_000_000,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    }),
  };
}

const MODEL_ANSWER = JSON.stringify({
  summary: 'Acme Rockets launches small satellites on reusable rockets.',
  keyFacts: { companyName: 'Acme Rockets Inc.', foundedYear: 2015, services: ['Launch', 'Rideshare'] },
});

/** A fake OpenAI-compatible provider on loopback (plain HTTP), answering from a queue or with MODEL_ANSWER. */
function useFakeProvider(): () => HttpsReceiver {
  let provider: HttpsReceiver | undefined;
  beforeAll(async () => {
    provider = await startHttpsReceiver({ protocol: 'http', responder: completion(MODEL_ANSWER) });
  });
  afterAll(async () => {
    await provider?.close();
  });
  return () => {
    if (provider === undefined) throw new Error('provider not started');
    return provider;
  };
}

describeEachStore('POST /url-to-metadata: summaries from an OpenAI-compatible provider', (kind) => {
  const { env, sites } = useSites();
  const provider = useFakeProvider();
  const get = useAppWith(kind, () => ({
    env: {
      ...env,
      AI_BASE_URL: `http://127.0.0.1:${provider().port}/v1`,
      AI_API_KEY: 'test-key',
      AI_MODEL: 'test-model',
    },
  }));

  it('asks the model for the level and returns ai.summary.<level>, keyFacts, contentLength, truncated, processingTime; 800 credits', async () => {
    const token = await get().createToken(1000);
    const before = provider().requests.length;
    const res = await analyze(get(), token, { url: sites().https.url('/rich'), aiSummary: 'medium' });
    expect(res.statusCode, res.body).toBe(200);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['800', '200']);
    const { ai } = res.json().data;
    expect(ai.summary).toEqual({
      medium: 'Acme Rockets launches small satellites on reusable rockets.',
      contentLength: expect.any(Number),
      truncated: false,
    });
    expect(ai.summary.contentLength).toBeGreaterThan(900);
    expect(ai.keyFacts).toEqual({
      companyName: 'Acme Rockets Inc.',
      foundedYear: 2015,
      services: ['Launch', 'Rideshare'],
    });
    expect(Number.isInteger(ai.processingTime)).toBe(true);
    expect(ai.model).toBe('test-model');
    expect(ai.warning).toBeUndefined();

    expect(provider().requests.length).toBe(before + 1);
    const request = provider().requests[before];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer test-key');
    const sent = JSON.parse(request?.text ?? '{}');
    expect(sent.model).toBe('test-model');
    expect(sent.messages[0].content).toContain('about 150 words');
    const user = sent.messages[1].content as string;
    expect(user).toContain(`URL: ${sites().https.url('/rich')}`);
    expect(user).toContain('Title: Acme Rockets - Reusable launch for small satellites');
    // The main text only: the article, without navigation, cookie banner, sidebar or scripts.
    for (const sentence of RICH_ARTICLE_SENTENCES) expect(user).toContain(sentence);
    for (const noise of ['We use cookies', 'newsletter', 'document.write', 'color: red', 'About again'])
      expect(user).not.toContain(noise);
  });

  it('takes a model answer that is not JSON as the summary itself, with the facts the page states', async () => {
    provider().enqueue(completion('Acme builds reusable rockets.'));
    const token = await get().createToken(1000);
    const { ai } = (await analyze(get(), token, { url: sites().https.url('/rich'), aiSummary: 'short' })).json().data;
    expect(ai.summary.short).toBe('Acme builds reusable rockets.');
    expect(ai.keyFacts).toMatchObject({
      companyName: 'Acme Rockets Inc.',
      foundedYear: 2015,
      headquarters: 'Springfield, US',
    });
  });

  it('leaves out of the key facts the URLs a model gives that are not http(s), and keeps its text as given', async () => {
    const facts = {
      companyName: 'Acme',
      website: ' JaVaScRiPt:alert(1)',
      contactUrl: 'data:text/html,<script>alert(1)</script>',
      links: ['vbscript:msgbox(1)', 'https://acme.test/about'],
      founder: { name: 'Ada', homepage: 'java\tscript:alert(1)', profileLink: 'https://acme.test/ada' },
      tagline: 'JavaScript: rockets for the web',
    };
    provider().enqueue(completion(JSON.stringify({ summary: 'Acme builds rockets.', keyFacts: facts })));
    const token = await get().createToken(1000);
    const { ai } = (await analyze(get(), token, { url: sites().https.url('/rich'), aiSummary: 'short' })).json().data;
    expect(ai.keyFacts).toEqual({
      companyName: 'Acme',
      links: ['https://acme.test/about'],
      founder: { name: 'Ada', profileLink: 'https://acme.test/ada' },
      tagline: 'JavaScript: rockets for the web',
    });
  });

  it('falls back to the built-in summary, with a warning, when the provider fails', async () => {
    provider().enqueue({ status: 503, body: 'overloaded' });
    const before = provider().requests.length;
    const token = await get().createToken(1000);
    const res = await analyze(get(), token, { url: sites().https.url('/rich'), aiSummary: 'short' });
    expect(res.statusCode, res.body).toBe(200);
    // Asked once: a retry would hold the paid call for a second full timeout when the provider hangs.
    expect(provider().requests.length).toBe(before + 1);
    expect(res.headers['x-cost']).toBe('800');
    const { ai } = res.json().data;
    expect(ai.model).toBe('builtin-extractive');
    expect(ai.warning).toBe('AI provider failed (HTTP 503); built-in summary used');
    expect(wordCount(ai.summary.short)).toBeGreaterThan(20);
  });

  it('summarizes plain text documents too', async () => {
    const token = await get().createToken(1000);
    const res = await analyze(get(), token, { url: sites().https.url('/notes.txt'), aiSummary: 'long' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.ai.summary.long).toBe('Acme Rockets launches small satellites on reusable rockets.');
    const sent = JSON.parse(provider().requests.at(-1)?.text ?? '{}');
    expect(sent.messages[0].content).toContain('about 300 words');
    expect(sent.messages[1].content).toContain(RICH_ARTICLE_SENTENCES[0]);
  });
});

describeEachStore('POST /url-to-metadata: the built-in extractive summarizer (no AI provider configured)', (kind) => {
  const { env, sites } = useSites();
  const get = useTestApp(kind, { env });

  it.each([
    ['short', 50],
    ['medium', 150],
  ] as const)('writes a %s summary of about %i words from the article, in page order', async (level, words) => {
    const token = await get().createToken(1000);
    const res = await analyze(get(), token, { url: sites().https.url('/rich'), aiSummary: level });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-cost']).toBe('800');
    const { ai } = res.json().data;
    const summary = ai.summary[level] as string;
    expect(wordCount(summary)).toBeGreaterThanOrEqual(words * 0.6);
    expect(wordCount(summary)).toBeLessThanOrEqual(words * 1.25);
    const positions = RICH_ARTICLE_SENTENCES.filter((sentence) => summary.includes(sentence)).map((sentence) =>
      summary.indexOf(sentence),
    );
    expect(positions.length).toBeGreaterThan(1);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(summary).not.toMatch(/cookies|newsletter/);
    expect(ai.model).toBe('builtin-extractive');
    expect(ai.summary.truncated).toBe(false);
    expect(Object.keys(ai.summary).sort()).toEqual(['contentLength', level, 'truncated'].sort());
  });

  it('returns the whole article for a long summary of a shorter page, and key facts from the markup', async () => {
    const token = await get().createToken(1000);
    const { ai } = (await analyze(get(), token, { url: sites().https.url('/rich'), aiSummary: 'long' })).json().data;
    for (const sentence of RICH_ARTICLE_SENTENCES) expect(ai.summary.long).toContain(sentence);
    expect(ai.keyFacts).toMatchObject({
      companyName: 'Acme Rockets Inc.',
      entityType: 'Organization',
      headquarters: 'Springfield, US',
      foundedYear: 2015,
      language: 'en',
      wordCount: expect.any(Number),
      readingTimeMinutes: 1,
    });
    expect(ai.keyFacts.topics).toContain('rockets');
  });

  it('marks a summary of a page longer than the text budget as truncated', async () => {
    const token = await get().createToken(1000);
    const { ai } = (await analyze(get(), token, { url: sites().https.url('/huge'), aiSummary: 'short' })).json().data;
    expect(ai.summary.truncated).toBe(true);
    expect(ai.summary.contentLength).toBeGreaterThan(12_000);
  });

  it('still answers for a page with no text', async () => {
    const token = await get().createToken(1000);
    const res = await analyze(get(), token, { url: sites().https.url('/image.png'), aiSummary: 'short' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.ai.summary).toEqual({ short: 'image.png', contentLength: 0, truncated: false });
  });

  describe('aiSummary none', () => {
    it('has no ai block and costs 55', async () => {
      const token = await get().createToken(1000);
      const res = await analyze(get(), token, { url: sites().https.url('/rich'), aiSummary: 'none' });
      expect(res.json().data.ai).toBeUndefined();
      expect(res.headers['x-cost']).toBe('55');
    });
  });
});

describeEachStore('POST /url-to-metadata: a wallet past its share of summaries', (kind) => {
  const { env, sites } = useSites();
  let provider: HttpsReceiver | undefined;
  beforeAll(async () => {
    // Slow enough that every call of the burst is in progress at once.
    provider = await startHttpsReceiver({
      protocol: 'http',
      responder: { ...completion(MODEL_ANSWER), delayMs: 600 },
    });
  });
  afterAll(async () => {
    await provider?.close();
  });
  const get = useAppWith(kind, () => ({
    env: { ...env, AI_BASE_URL: `http://127.0.0.1:${provider?.port ?? 0}/v1`, AI_API_KEY: 'test-key' },
  }));

  it('is refused before its page is fetched, not after: the site sees only the calls that get their summary', async () => {
    const { perKey, maxWaitingPerKey = 0 } = POOL_SIZES.summaries;
    const calls = perKey + maxWaitingPerKey + 10;
    const token = await get().createToken(800 * calls);
    const before = hits(sites().https, '/rich');
    const answers = await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        analyze(get(), token, { url: sites().https.url(`/rich?call=${i}`), aiSummary: 'short' }),
      ),
    );
    const served = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 503);
    expect([served.length, refused.length]).toEqual([perKey + maxWaitingPerKey, 10]);
    for (const answer of refused) {
      expect(answer.json()).toEqual({ success: false, error: WALLET_BUSY });
      expect(answer.headers['x-cost']).toBe('0');
    }
    expect(hits(sites().https, '/rich') - before).toBe(served.length);
  }, 60_000);
});
