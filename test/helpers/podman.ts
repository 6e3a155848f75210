/**
 * Podman for the container tests, on machines with no image registry: the image's base is built here from Debian's
 * packages (mmdebstrap, imported into podman) with the Node binary that runs the tests and the npm that is on PATH,
 * and handed to the Dockerfile as its BASE build argument. The base is kept in podman's store under a tag made from a
 * hash of everything that goes into it, so later runs on the same machine reuse it.
 *
 *   const support = podmanSupport();            // { ok: false, reason } where containers cannot run
 *   const base = await testBaseImage();          // localhost/coinop-test-base:<hash>
 *   await podman(['build', '--build-arg', `BASE=${base}`, …]);
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** runc and cgroupfs: these machines run no systemd and their crun cannot set the default rlimits. */
const CONTAINERS_CONF = `[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"

[containers]
default_ulimits = []
`;

const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
const DEBIAN_SUITE = 'bookworm';
/** What node:26-bookworm-slim has that Node needs (libatomic1) or the Dockerfile uses (passwd: useradd). */
const DEBIAN_PACKAGES = ['passwd', 'libatomic1'];

/** The environment every podman call runs with: the settings above in a CONTAINERS_CONF file (one per machine). */
export function podmanEnv(): NodeJS.ProcessEnv {
  const file = join(tmpdir(), 'coinop-test-containers.conf');
  if (!existsSync(file) || readFileSync(file, 'utf8') !== CONTAINERS_CONF) writeFileSync(file, CONTAINERS_CONF);
  return { ...process.env, CONTAINERS_CONF: file };
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

export type Support = { ok: true } | { ok: false; reason: string };

/** Whether this machine can build and run the image: podman, mmdebstrap, root (rootful podman, mmdebstrap's root mode). */
export function podmanSupport(): Support {
  const install = 'apt-get install podman runc mmdebstrap uidmap, as .ci/run does';
  for (const command of ['podman', 'runc', 'mmdebstrap']) {
    if (onPath(command) === undefined && !existsSync(`/usr/sbin/${command}`))
      return { ok: false, reason: `${command} is missing (${install})` };
  }
  if (process.getuid?.() !== 0)
    return { ok: false, reason: 'building the base with mmdebstrap and running rootful podman need root' };
  try {
    execFileSync('podman', ['info', '--format', '{{.Host.OCIRuntime.Name}}'], {
      env: podmanEnv(),
      stdio: 'pipe',
      timeout: 60_000,
    });
  } catch (error) {
    return {
      ok: false,
      reason: `podman cannot run here: ${
        String((error as { stderr?: Buffer }).stderr ?? error)
          .trim()
          .split('\n')[0]
      }`,
    };
  }
  return { ok: true };
}

/**
 * Runs podman with `args`; resolves with its stdout, rejects with its output on a non-zero exit. At a lower CPU
 * priority (nice, inherited by what it starts): builds share the machine with the rest of the suite.
 */
export function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'nice',
      ['-n', '10', 'podman', ...args],
      { env: podmanEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`podman ${args.join(' ')}: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** podman's exit code for `args`, for commands whose failure is an answer (image exists, healthcheck run). */
export function podmanStatus(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    execFile('podman', args, { env: podmanEnv(), timeout: 60_000 }, (error) =>
      resolve(error === null ? 0 : typeof error.code === 'number' ? error.code : 1),
    );
  });
}

/** The npm package folder of the `npm` command on PATH (put into the base beside the Node binary). */
function npmFolder(): string {
  const command = onPath('npm');
  if (command === undefined) throw new Error('npm is not on PATH');
  let dir = dirname(realpathSync(command));
  while (
    !existsSync(join(dir, 'package.json')) ||
    (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== 'npm'
  ) {
    if (dirname(dir) === dir) throw new Error(`no npm package above ${command}`);
    dir = dirname(dir);
  }
  return dir;
}

/**
 * What this machine's npm needs to reach its registry: the registry, and the extra CA certificates that sign its TLS
 * where a proxy re-signs it (NODE_EXTRA_CA_CERTS, or npm's cafile).
 */
function npmNetworkSettings(): { registry: string; caFile: string | undefined } {
  const get = (key: string) => execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
  const caFile = [process.env.NODE_EXTRA_CA_CERTS, get('cafile')].find(
    (file) => file !== undefined && file !== 'null' && file !== '' && existsSync(file),
  );
  return { registry: get('registry'), caFile };
}

const quote = (path: string) => `'${path.replaceAll("'", `'\\''`)}'`;

/**
 * A Debian bookworm image with Node at /usr/local/bin/node and npm beside it, as node:26-bookworm-slim lays them out,
 * and what this machine's npm needs to reach its registry (npm's global config, extra CA certificates): built once per
 * machine and Node binary, then found by its tag.
 */
export async function testBaseImage(): Promise<string> {
  const node = process.execPath;
  const npm = npmFolder();
  const network = npmNetworkSettings();
  const npmrc = `registry=${network.registry}\n`;
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ DEBIAN_MIRROR, DEBIAN_SUITE, DEBIAN_PACKAGES, npmrc, recipe: 3 }));
  hash.update(readFileSync(node));
  hash.update(readFileSync(join(npm, 'package.json')));
  if (network.caFile !== undefined) hash.update(readFileSync(network.caFile));
  const tag = `localhost/coinop-test-base:${hash.digest('hex').slice(0, 16)}`;
  if ((await podmanStatus(['image', 'exists', tag])) === 0) return tag;

  const work = mkdtempSync(join(tmpdir(), 'coinop-base-'));
  try {
    writeFileSync(join(work, 'npmrc'), npmrc);
    if (network.caFile !== undefined) copyFileSync(network.caFile, join(work, 'extra-ca.crt'));
    const install = [
      'mkdir -p "$1/usr/local/lib/node_modules" "$1/usr/local/etc"',
      `cp ${quote(node)} "$1/usr/local/bin/node"`,
      `cp -a ${quote(npm)} "$1/usr/local/lib/node_modules/npm"`,
      'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"',
      'ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
      `cp ${quote(join(work, 'npmrc'))} "$1/usr/local/etc/npmrc"`,
      ...(network.caFile === undefined
        ? []
        : [`cp ${quote(join(work, 'extra-ca.crt'))} "$1/usr/local/etc/extra-ca.crt"`]),
    ].join(' && ');
    const tarball = join(work, 'base.tar');
    await new Promise<void>((resolve, reject) => {
      const args = ['--quiet', '--variant=minbase', `--include=${DEBIAN_PACKAGES.join(',')}`];
      for (const excluded of ['/usr/share/doc/*', '/usr/share/man/*', '/usr/share/locale/*'])
        args.push(`--dpkgopt=path-exclude=${excluded}`);
      args.push(`--customize-hook=${install}`, DEBIAN_SUITE, tarball, DEBIAN_MIRROR);
      const child = execFile(
        'nice',
        ['-n', '10', 'mmdebstrap', ...args],
        { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
        (error, _stdout, stderr) => (error ? reject(new Error(`mmdebstrap: ${error.message}\n${stderr}`)) : resolve()),
      );
      child.stdin?.end();
    });
    const changes = ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'CMD ["node"]'];
    if (network.caFile !== undefined) changes.push('ENV NODE_EXTRA_CA_CERTS=/usr/local/etc/extra-ca.crt');
    await podman(['import', ...changes.flatMap((change) => ['--change', change]), tarball, tag], 300_000);
    return tag;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
