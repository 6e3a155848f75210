/**
 * An e-mail address as the service takes one: the JSON schemas' `format: 'email'` (registered with this pattern in
 * src/http/validation.ts, the same one ajv-formats uses) and the console's forms test the same thing.
 */
export const EMAIL_ADDRESS =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
