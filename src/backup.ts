import { existsSync, lstatSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { backupSqliteFile } from './store/sqlite/sqlite-backup.js';

/**
 * `npm run backup -- <file>`: a consistent copy of the SQLite database named by the same settings as the
 * service (DATA_DIR, DATABASE_URL), taken while the service runs. The copy is the owner's only (mode 0600), like
 * the database. Every refusal is one line and a non-zero exit.
 */
class Refusal extends Error {}

/** Whether `path` names a folder; false where a part of it is missing or is a file. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function backup(args: readonly string[]): Promise<string> {
  // `--help`, `-h`: an option, never a file to write the database to (name such a file ./-h).
  if (args.length !== 1 || args[0] === undefined || args[0].trim() === '' || args[0].startsWith('-'))
    throw new Refusal('usage: npm run backup -- <file>');
  const target = resolve(args[0]);
  const config = loadConfig();
  if (!config.databaseUrl.startsWith('sqlite:')) {
    throw new Refusal('DATABASE_URL is PostgreSQL: back it up with pg_dump (see "Backup and restore" in the README)');
  }
  const source = resolve(config.databaseUrl.slice('sqlite:'.length));
  if (!existsSync(source)) throw new Refusal(`no SQLite database at ${source} (check DATA_DIR or DATABASE_URL)`);
  const folder = dirname(target);
  if (!isFolder(folder)) throw new Refusal(`no folder ${folder}: create it first, or name a file in one that exists`);
  // lstat, not exists: a symbolic link (even one to nowhere) is refused, never written through.
  const existing = lstatSync(target, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink() === true) throw new Refusal(`${target} is a symbolic link: name a new file`);
  if (existing !== undefined) throw new Refusal(`${target} already exists: name a new file`);
  const { pages } = await backupSqliteFile(source, target);
  return `copied ${source} (${pages} pages) to ${target}`;
}

backup(process.argv.slice(2)).then(
  (done) => process.stdout.write(`coinop backup: ${done}\n`),
  (error: unknown) => {
    const refused = error instanceof Refusal || error instanceof ConfigError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`coinop backup: ${refused ? message : `failed: ${message}`}\n`);
    process.exitCode = refused ? 2 : 1;
  },
);
