import type { operations } from '../../clients/typescript/src/generated/schema.js';

/**
 * The JSON body of an operation's 200 answer, as the service's OpenAPI document describes it: the types the SDK
 * generates from it (clients/typescript/src/generated/schema.d.ts), so the console never keeps a copy of its own.
 */
export type OkBody<Op extends keyof operations> = operations[Op]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
