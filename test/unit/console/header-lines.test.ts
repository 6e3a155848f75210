import { describe, expect, it } from 'vitest';
import { parseHeaders } from '../../../console/src/components/low-balance-draft.js';
import { draftProblem } from '../../../console/src/pages/webhooks/draft-check.js';
import { emptyDraft } from '../../../console/src/pages/webhooks/form-state.js';
import { repeatedHeaderProblem } from '../../../src/delivery-core/delivery-headers.js';

describe('headers typed twice in a console form', () => {
  it('are refused in the service’s words, not kept once without a word', () => {
    expect(repeatedHeaderProblem(['X-A', 'X-B', 'x-a '])).toBe(
      'Invalid headers: "x-a" is given twice (header names ignore case)',
    );
    expect(repeatedHeaderProblem(['X-A', 'X-B'])).toBeNull();
  });

  it('in the low-balance settings, as lines', () => {
    expect(parseHeaders('A: 1\nA: 2')).toEqual({
      ok: false,
      error: 'Invalid headers: "A" is given twice (header names ignore case)',
    });
    expect(parseHeaders('A: 1\nB: 2')).toEqual({ ok: true, value: { A: '1', B: '2' } });
  });

  it('in the webhook form, as rows', () => {
    const draft = {
      ...emptyDraft('UTC'),
      webhookId: 'twice',
      url: 'https://example.com/hook',
      headers: [
        // The same name twice: an object would keep one of them without a word.
        { name: 'Authorization', value: 'one' },
        { name: 'Authorization', value: 'two' },
      ],
    };
    expect(draftProblem(draft, false)).toBe(
      'Invalid headers: "Authorization" is given twice (header names ignore case)',
    );
  });
});
