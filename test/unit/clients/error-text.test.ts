import { describe, expect, it } from 'vitest';
import { BadRequest, errorText } from '../../../clients/typescript/src/errors.js';
import { readableError } from '../../../console/src/pages/tools/readable-error.js';

describe('errorText: what an error body says, in the SDK and the console alike', () => {
  it('reads the error of a JSON failure body, with the field a DNS 400 names', () => {
    expect(errorText('{"success":false,"error":"Invalid url: refused address"}')).toBe('Invalid url: refused address');
    expect(errorText('{"error":"Invalid domains: must list 1 to 10","field":"domains"}')).toBe(
      'Invalid domains: must list 1 to 10 (domains)',
    );
    expect(new BadRequest({ status: 400, body: '{"error":"bad","field":"types"}', cost: 1, balance: 9 }).message).toBe(
      '400: bad (types)',
    );
  });

  it('keeps plain text, and JSON that is not a failure body, as it came', () => {
    for (const body of ['Key Not Found', '{"error":{"nested":true}}', '{not json', '{"message":"x"}'])
      expect(errorText(body)).toBe(body);
  });

  it('is how the console reads a status and its body', () => {
    expect(readableError('400: {"error":"Invalid types: unknown MX2","field":"types"}')).toBe(
      '400: Invalid types: unknown MX2 (types)',
    );
    expect(readableError('404: Key Not Found')).toBe('404: Key Not Found');
    expect(readableError(undefined)).toBeUndefined();
  });
});
