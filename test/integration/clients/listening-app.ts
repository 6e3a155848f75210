import type { AddressInfo } from 'node:net';
import { beforeAll } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import type { StoreKind } from '../../helpers/stores.js';

export interface ListeningApp {
  app(): TestApp;
  /** `http://127.0.0.1:<port>`. */
  url(): string;
}

/** An instance with these settings, listening on loopback for the CLI and the SDK, for one describe block. */
export function useListeningApp(kind: StoreKind, env: Record<string, string>): ListeningApp {
  const app = useTestApp(kind, { env });
  let url: string | undefined;
  beforeAll(async () => {
    await app().app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app().app.server.address() as AddressInfo).port}`;
  });
  return {
    app,
    url: () => {
      if (url === undefined) throw new Error('instance not listening');
      return url;
    },
  };
}
