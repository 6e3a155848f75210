import { describe, expect, it } from 'vitest';
import { metadataCost, metadataMeter } from '../../../src/features/metadata/metadata.routes.js';
import { parseModelAnswer } from '../../../src/features/metadata/ai/chat-summarizer.js';

describe('url-to-metadata costs', () => {
  it.each([
    [{ url: 'x' }, 55],
    [{ url: 'x', aiSummary: 'none' }, 55],
    [{ url: 'x', aiSummary: 'short' }, 800],
    [{ url: 'x', aiSummary: 'medium' }, 800],
    [{ url: 'x', aiSummary: 'long' }, 800],
    [{ url: 'x', aiSummary: 'LONG' }, 55],
    [{ url: 'x', aiSummary: 3 }, 55],
    [undefined, 55],
    ['text', 55],
  ])('charges %j %i up front', (body, cost) => {
    expect(metadataCost(body)).toBe(cost);
  });

  it.each([
    [200, 800, 800],
    [200, 55, 55],
    [400, 800, 1],
    [413, 55, 1],
    [500, 55, 0],
    [502, 800, 0],
    [503, 55, 0],
  ])('settles status %i of a %i charge at %i', (status, charged, final) => {
    expect(metadataMeter.settle?.(status, charged)).toBe(final);
  });

  it('charges 1 for a body that could not be parsed', () => {
    expect(metadataMeter.failureCost).toBe(1);
    expect(metadataMeter.category).toBe('url-to-metadata');
  });
});

describe('model answers', () => {
  it('reads the JSON object, also inside a code fence or prose', () => {
    expect(parseModelAnswer('```json\n{"summary":" S. ","keyFacts":{"a":1}}\n```')).toEqual({
      summary: 'S.',
      keyFacts: { a: 1 },
    });
    expect(parseModelAnswer('Here you go: {"summary":"S"}')).toEqual({ summary: 'S', keyFacts: {} });
  });

  it('takes anything else as the summary text', () => {
    expect(parseModelAnswer('Just a summary {not json}.')).toEqual({
      summary: 'Just a summary {not json}.',
      keyFacts: {},
    });
    expect(parseModelAnswer('{"keyFacts":{}}')).toEqual({ summary: '{"keyFacts":{}}', keyFacts: {} });
  });
});
