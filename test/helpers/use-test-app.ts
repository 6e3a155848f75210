import { afterAll, beforeAll } from 'vitest';
import { startTestApp } from './app.js';
import type { TestApp, TestAppOptions } from './app.js';
import type { StoreKind } from './stores.js';

/** One app per describe block, closed after it. */
export function useTestApp(kind: StoreKind, options: TestAppOptions = {}): () => TestApp {
  let testApp: TestApp | undefined;
  beforeAll(async () => {
    testApp = await startTestApp(kind, options);
  });
  afterAll(async () => {
    await testApp?.close();
  });
  return () => {
    if (testApp === undefined) throw new Error('test app not started');
    return testApp;
  };
}
