import { expectTypeOf, it } from 'vitest';
import type { operations } from '../../../clients/typescript/src/generated/schema.js';
import type {
  DeliveryDetail,
  DeliveryList,
  RedeliveryResult,
  TestResult,
  WebhookList,
} from '../../../console/src/pages/webhooks/types.js';
import type { SpendAnswer } from '../../../console/src/components/spend-series.js';
import type { SettingsView } from '../../../console/src/components/low-balance-draft.js';
import type { BucketSummary, KeySummary } from '../../../console/src/pages/kv/kv-api.js';
import type { WalletInfo } from '../../../console/src/wallet-details.js';
import type { MetadataAnswer } from '../../../console/src/pages/tools/metadata-types.js';
import type { DnsAnswer, RECORD_TYPES } from '../../../console/src/pages/tools/dns-types.js';

type Ok<Op extends keyof operations> = operations[Op]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

// Checked by tsc (npm run typecheck; modules that import .tsx files are left to the console's own tsc): the console reads the service's answers as the SDK's generated types, so a
// change to a schema reaches the console's code instead of drifting from a hand-kept copy.
it("the console's answer types are the generated OpenAPI types", () => {
  expectTypeOf<WebhookList>().toEqualTypeOf<Ok<'webhookList'>>();
  expectTypeOf<TestResult>().toEqualTypeOf<Ok<'webhookTest'>>();
  expectTypeOf<DeliveryList>().toEqualTypeOf<Ok<'webhookDeliveries'>>();
  expectTypeOf<DeliveryDetail>().toEqualTypeOf<Ok<'webhookDelivery'>>();
  expectTypeOf<RedeliveryResult>().toEqualTypeOf<Ok<'webhookRedeliver'>>();
  expectTypeOf<SpendAnswer>().toEqualTypeOf<Ok<'spendSummary'>>();
  expectTypeOf<SettingsView>().toEqualTypeOf<Ok<'settingsGet'>>();
  expectTypeOf<BucketSummary>().toEqualTypeOf<Ok<'kvBuckets'>['buckets'][number]>();
  expectTypeOf<KeySummary>().toEqualTypeOf<Ok<'kvList'>['keys'][number]>();
  expectTypeOf<WalletInfo>().toEqualTypeOf<Ok<'tokenGet'>>();
  expectTypeOf<MetadataAnswer>().toEqualTypeOf<Ok<'urlMetadata'>>();
  expectTypeOf<DnsAnswer>().toEqualTypeOf<Ok<'dnsLookup'>>();
  expectTypeOf<(typeof RECORD_TYPES)[number]>().toEqualTypeOf<Ok<'dnsLookup'>['summary']['recordTypes'][number]>();
});
