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

/** Two instances of the service on one PostgreSQL database, as a multi-instance deployment runs; started before the describe block, closed after it. */
export function useTwoPostgresInstances(options: TestAppOptions = {}): () => readonly [TestApp, TestApp] {
  let first: TestApp | undefined;
  let second: TestApp | undefined;
  beforeAll(async () => {
    first = await startTestApp('postgres', options);
    second = await startTestApp('postgres', { ...options, database: first.database });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });
  return () => {
    if (first === undefined || second === undefined) throw new Error('instances not started');
    return [first, second];
  };
}
