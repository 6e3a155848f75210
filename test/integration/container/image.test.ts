import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/server-process.js';
import { podman, podmanStatus, podmanSupport, testBaseImage } from '../../helpers/podman.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const IMAGE = 'localhost/coinop-test:latest';
const BUILD_STAGE = 'localhost/coinop-test-build:latest';
const support = podmanSupport();
if (!support.ok && process.env.CI !== undefined) throw new Error(`CI must run the container test: ${support.reason}`);
if (!support.ok) console.warn(`SKIPPED container image tests: ${support.reason}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const suffix = `${process.pid}-${Date.now().toString(36)}`;
const volume = `coinop-test-data-${suffix}`;
const containers: string[] = [];

interface Running {
  readonly name: string;
  readonly url: string;
}

/** Runs the image on the host's network, listening on loopback only, with `/data` on the test's volume. */
async function runContainer(env: Record<string, string> = {}): Promise<Running> {
  const name = `coinop-test-${suffix}-${containers.length}`;
  const port = await freePort();
  const settings = {
    HOST: '127.0.0.1',
    PORT: String(port),
    SMTP_PORT: '0',
    SHUTDOWN_DELAY_MS: '500',
    DNS_SERVERS: '127.0.0.1:9',
    ...env,
  };
  const envArgs = Object.entries(settings).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  // No health-check timer: podman would ask systemd for one; the check itself is run by hand below.
  await podman([
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    'host',
    '--health-interval',
    'disable',
    '--volume',
    `${volume}:/data`,
    ...envArgs,
    IMAGE,
  ]);
  containers.push(name);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (
    (await fetch(`${url}/readyz`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (Date.now() > deadline)
      throw new Error(`/readyz did not answer 200 within 60 s:\n${await podman(['logs', name])}`);
    await sleep(200);
  }
  return { name, url };
}

const imageId = (tag: string) =>
  podman(['image', 'inspect', '--format', '{{.Id}}', tag]).then(
    (id) => id.trim(),
    () => '',
  );

/** Builds `tag` anew and removes the image it named before, so repeated runs do not pile up images. */
async function replaceTagged(tag: string, build: () => Promise<unknown>): Promise<void> {
  const previous = await imageId(tag);
  await build();
  if (previous !== '' && previous !== (await imageId(tag))) await podman(['rmi', previous]).catch(() => undefined);
}

/** `podman stop` (the image's STOPSIGNAL, SIGTERM) and how it ended. */
async function stopContainer(name: string): Promise<{ exitCode: number; seconds: number; log: string }> {
  const started = Date.now();
  await podman(['stop', '--time', '60', name]);
  const seconds = (Date.now() - started) / 1000;
  const exitCode = Number((await podman(['inspect', '--format', '{{.State.ExitCode}}', name])).trim());
  return { exitCode, seconds, log: await podman(['logs', name]) };
}

const suite = 'the container image, built from the Dockerfile and run with podman';
describe.skipIf(!support.ok)(support.ok ? suite : `${suite} (skipped: ${support.ok ? '' : support.reason})`, () => {
  let token = '';

  beforeAll(async () => {
    const base = await testBaseImage();
    // The network is the host's: npm ci in the build stage reaches the npm registry, apt-get Debian's mirror.
    const build = ['build', '--network', 'host', '--format', 'docker', '--build-arg', `BASE=${base}`];
    await replaceTagged(IMAGE, () => podman([...build, '--tag', IMAGE, ROOT], 900_000));
    // The build stage gets a tag too (from the cache: nothing is built again), so the last run's stage can be removed
    // like its image; the layers a new build shares with them (the dependencies) stay cached.
    await replaceTagged(BUILD_STAGE, () =>
      podman([...build, '--target', 'build', '--tag', BUILD_STAGE, ROOT], 300_000),
    );
    await podman(['volume', 'create', volume]);
  }, 1_800_000);

  afterAll(async () => {
    for (const name of containers) await podman(['rm', '--force', name]).catch(() => undefined);
    await podman(['volume', 'rm', '--force', volume]).catch(() => undefined);
  }, 120_000);

  it('defaults to the official Node image and declares a non-root user, /data, the ports, SIGTERM and a /readyz health check', async () => {
    expect(readFileSync(`${ROOT}/Dockerfile`, 'utf8')).toMatch(/^ARG BASE=node:26-bookworm-slim$/m);
    const [image] = JSON.parse(await podman(['image', 'inspect', IMAGE])) as {
      Config: Record<string, unknown>;
      Healthcheck?: unknown;
    }[];
    const config = image!.Config;
    expect(config.User).toBe('coinop');
    expect(Object.keys(config.Volumes as object)).toEqual(['/data']);
    expect(Object.keys(config.ExposedPorts as object).sort()).toEqual(['2525/tcp', '8080/tcp']);
    expect(config.StopSignal).toBe('SIGTERM');
    expect(config.Entrypoint).toEqual(['tini', '--']);
    // podman shows the HEALTHCHECK beside the config, docker inside it
    expect(JSON.stringify(image!.Healthcheck ?? config.Healthcheck)).toContain('/readyz');
  });

  it('serves: /readyz, a KV round trip, its health check passes, tini is PID 1 and node runs as coinop', async () => {
    const { name, url } = await runContainer();
    const created = await fetch(`${url}/token`, { method: 'POST', body: new URLSearchParams({ token: 'new' }) });
    token = (await created.text()).trim();
    expect(token).toMatch(/^coin_/);
    const set = await fetch(`${url}/kv/container/greeting`, {
      method: 'POST',
      headers: { 'x-token': token },
      body: 'hello from the volume',
    });
    expect(set.status).toBe(200);
    const got = await fetch(`${url}/kv/container/greeting`, { headers: { 'x-token': token } });
    expect(await got.text()).toBe('hello from the volume');
    expect(await podmanStatus(['healthcheck', 'run', name])).toBe(0);
    const processes = await podman(['top', name, 'pid', 'user', 'args']);
    expect(processes).toMatch(/^\s*1\s+coinop\s+tini -- node /m);
    expect(processes).toMatch(/^\s*\d+\s+coinop\s+node --enable-source-maps .*dist\/main\.js/m);
  });

  it('stops gracefully on SIGTERM: exit code 0, "stopped" logged, no native abort, well within the grace period', async () => {
    const { exitCode, seconds, log } = await stopContainer(containers[0]!);
    expect(log).toContain('"signal":"SIGTERM","msg":"stopping: draining requests"');
    expect(log).toContain('"msg":"stopped"');
    expect(log).not.toMatch(/Assertion failed|Segmentation fault|FATAL ERROR|core dumped/);
    expect(exitCode).toBe(0);
    expect(seconds).toBeLessThan(30);
  });

  it('keeps the data on the volume: a new container reads the key and the wallet, then stops gracefully too', async () => {
    const { name, url } = await runContainer();
    const got = await fetch(`${url}/kv/container/greeting`, { headers: { 'x-token': token } });
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('hello from the volume');
    expect(Number(got.headers.get('x-balance'))).toBe(97); // 100, less the set, the read before the restart and this one
    expect((await stopContainer(name)).exitCode).toBe(0);
  });

  it.runIf(process.env.TEST_DATABASE_URL !== undefined)(
    'serves on PostgreSQL with DATABASE_URL, as compose.yaml runs it',
    async () => {
      let database: ScratchDatabase | undefined;
      try {
        database = await scratchDatabase('postgres');
        const { name, url } = await runContainer({ DATABASE_URL: database.url });
        const created = await fetch(`${url}/token`, { method: 'POST', body: new URLSearchParams({ token: 'new' }) });
        const pgToken = (await created.text()).trim();
        await fetch(`${url}/kv/container/pg`, { method: 'POST', headers: { 'x-token': pgToken }, body: 'on postgres' });
        expect(await (await fetch(`${url}/kv/container/pg`, { headers: { 'x-token': pgToken } })).text()).toBe(
          'on postgres',
        );
        expect(await podman(['logs', name])).toMatch(/"data":"PostgreSQL /);
        expect((await stopContainer(name)).exitCode).toBe(0);
      } finally {
        await database?.drop();
      }
    },
  );
});
