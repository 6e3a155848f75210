// Request and answer shapes, named after the operations and taken from the generated document types.
import type { paths } from './generated/schema.js';

type OkContent<Operation> = Operation extends { responses: { 200: { content: infer Content } } }
  ? Content[keyof Content]
  : never;
type JsonBody<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer Body } } }
  ? Body
  : never;
type Query<Operation> = Operation extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type WalletInfo = OkContent<paths['/token']['get']>;
export type Logs = OkContent<paths['/token/logs']['get']>;
export type LogEntry = Logs['logs'][number];
export type LogsQuery = Partial<Query<paths['/token/logs']['get']>>;
export type Spend = OkContent<paths['/token/spend']['get']>;
export type SpendQuery = Partial<Query<paths['/token/spend']['get']>>;
export type RechargeAmount = Query<paths['/recharge']['get']>['amount'];
export type KeyList = OkContent<paths['/kv/{bucket}']['get']>;
export type KvListQuery = Partial<Query<paths['/kv/{bucket}']['get']>>;
export type BucketList = OkContent<paths['/kv']['get']>;
export type KvBucketsQuery = Partial<Query<paths['/kv']['get']>>;
export type Settings = OkContent<paths['/token/settings']['get']>;
export type SettingsUpdate = JsonBody<paths['/token/settings']['put']>;
export type WebhookCreate = JsonBody<paths['/webhook']['post']>;
export type WebhookReplace = JsonBody<paths['/webhook/{webhookId}']['put']>;
export type WebhookPatch = JsonBody<paths['/webhook/{webhookId}']['patch']>;
export type Webhook = OkContent<paths['/webhook/{webhookId}']['get']>;
export type WebhookList = OkContent<paths['/webhook']['get']>;
export type WebhookTestResult = OkContent<paths['/webhook/{webhookId}/test']['post']>;
export type Deliveries = OkContent<paths['/webhook/{webhookId}/deliveries']['get']>;
export type DeliveriesQuery = Partial<Query<paths['/webhook/{webhookId}/deliveries']['get']>>;
export type Delivery = OkContent<paths['/webhook/{webhookId}/deliveries/{deliveryId}']['get']>;
export type DnsLookupRequest = JsonBody<paths['/dns-lookup']['post']>;
export type DnsLookupResult = OkContent<paths['/dns-lookup']['post']>;
export type UrlMetadataRequest = JsonBody<paths['/url-to-metadata']['post']>;
export type UrlMetadataResult = OkContent<paths['/url-to-metadata']['post']>;
export type CallerIp = OkContent<paths['/myip']['get']>;
export type AdminWallet = OkContent<paths['/manage/wallets/{hash}']['get']>;
export type AdminCredit = OkContent<paths['/manage/wallets/{hash}/credit']['post']>;
export type AdminWallets = OkContent<paths['/manage/wallets']['get']>;
export type AdminWalletsQuery = Partial<Query<paths['/manage/wallets']['get']>>;
export type AdminWalletLogs = OkContent<paths['/manage/wallets/{hash}/logs']['get']>;
export type AdminWalletLogsQuery = Partial<Query<paths['/manage/wallets/{hash}/logs']['get']>>;
export type AdminStats = OkContent<paths['/manage/stats']['get']>;
export type AdminStatsQuery = Partial<Query<paths['/manage/stats']['get']>>;
export type AdminDebit = OkContent<paths['/manage/wallets/{hash}/debit']['post']>;
