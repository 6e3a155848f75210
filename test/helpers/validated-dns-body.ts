import { createAjv } from '../../src/http/validation.js';
import { DnsLookupBody } from '../../src/features/dns/dns.schemas.js';
import type { DnsLookupInput } from '../../src/features/dns/lookup-plan.js';

// As the route validates a body: no coercion, defaults filled in.
const validate = createAjv(false).compile<DnsLookupInput>(DnsLookupBody);

/**
 * A body as POST /dns-lookup hands it to the lookup, for tests that call the lookup directly:
 * the schema's defaults are the only ones, so they come from the schema here too.
 */
export function validatedBody(body: DnsLookupBody): DnsLookupInput {
  const copy = structuredClone(body);
  if (!validate(copy))
    throw new Error(`the schema refuses ${JSON.stringify(body)}: ${JSON.stringify(validate.errors)}`);
  return copy;
}
