import { expect, it } from 'vitest';
import formats from 'ajv-formats/dist/formats.js';
import { EMAIL_ADDRESS } from '../../../src/lib/email-address.js';

it("is ajv-formats' own e-mail pattern (what the schemas' format: 'email' meant before it was registered from here)", () => {
  expect(formats.fullFormats.email).toBeInstanceOf(RegExp);
  expect(EMAIL_ADDRESS.source).toBe((formats.fullFormats.email as RegExp).source);
  expect(EMAIL_ADDRESS.flags).toBe((formats.fullFormats.email as RegExp).flags);
});
