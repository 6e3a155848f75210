import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}

// No image registry here, so PostgreSQL's official image cannot be pulled: what compose.yaml promises is read from
// it, and the image's PostgreSQL path runs for real in image.test.ts.
describe('compose.yaml: coinop and PostgreSQL', () => {
  const compose = parse(readFileSync(`${ROOT}/compose.yaml`, 'utf8')) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const { postgres, coinop } = compose.services as { postgres: Service; coinop: Service };

  it('keeps PostgreSQL on a named volume and judges it ready with its own pg_isready', () => {
    expect(postgres.image).toMatch(/^postgres:\d+/);
    const [volume] = (postgres.volumes ?? [])[0]?.split(':') ?? [];
    expect(Object.keys(compose.volumes)).toContain(volume);
    expect(postgres.healthcheck?.test.join(' ')).toMatch(/pg_isready -U coinop -d coinop/);
  });

  it('builds coinop from the Dockerfile, starts it once PostgreSQL is healthy and points DATABASE_URL at it', () => {
    expect(coinop.build).toBe('.');
    expect(coinop.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(coinop.environment?.DATABASE_URL).toMatch(/^postgres:\/\/coinop:.+@postgres:5432\/coinop$/);
    expect(coinop.ports).toContain('8080:8080');
  });

  it('gives coinop longer than its own shutdown (the drain delay, then up to 10 s for requests in flight) to stop', () => {
    expect(Number.parseInt(coinop.stop_grace_period ?? '10s', 10)).toBeGreaterThanOrEqual(20);
  });
});
