import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Loads a CommonJS package the first time it is asked for (Node caches it after that). For SDKs that
 * most deployments never configure (Stripe, OpenAI): a static import would keep them resident from start.
 */
export function requireOnDemand<T>(name: string): T {
  return require(name) as T;
}
