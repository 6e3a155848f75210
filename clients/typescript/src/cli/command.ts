import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { Coinop } from '../client.js';
import { UsageError } from './exit-codes.js';
import { output } from './output.js';
import type { Output } from './output.js';
import { resolveSettings } from '../settings.js';
import type { Settings } from '../settings.js';

/** One top-level word of the CLI (`kv`, `dns`, …): the table in commands.ts maps each word to one. */
export interface Command {
  /** One line for `coinop help`. */
  readonly summary: string;
  /** The usage lines shown by `coinop <word> --help` and after a usage error. */
  readonly usage: string;
  run(args: readonly string[]): Promise<void>;
}

/** Options every command takes. */
export const GLOBAL_OPTIONS = {
  json: { type: 'boolean', default: false },
  url: { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Invocation<O extends Options> {
  readonly values: ReturnType<
    typeof parseArgs<{ args: string[]; options: O & typeof GLOBAL_OPTIONS; allowPositionals: true; strict: true }>
  >['values'];
  readonly positionals: string[];
  /**
   * Refuses what the command would otherwise ignore: positionals past the first `count` (the subcommand word counted)
   * and options given that are not in `own` (a word's subcommands share one option table), so a stray word is a usage
   * error rather than a call that stores or charges for something else (docs/reference.md, exit codes).
   */
  only(what: string, count: number, own?: readonly (keyof O & string)[]): void;
  readonly settings: Settings;
  readonly out: Output;
  /** The client for the settings; `needsToken` (the default) refuses to go on without one. */
  client(needsToken?: boolean): Coinop;
}

/** Reads a command's arguments (its own options plus the global ones); unknown options are a usage error. */
export function invocation<O extends Options>(args: readonly string[], options: O): Invocation<O> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, ...GLOBAL_OPTIONS },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as Invocation<O>['values'] & { json?: boolean; url?: string; token?: string };
  const settings = resolveSettings({ url: values.url, token: values.token });
  const given = parsed.tokens.flatMap((token) => (token.kind === 'option' ? [token.name] : []));
  return {
    values: parsed.values as Invocation<O>['values'],
    positionals: parsed.positionals,
    only(what, count, own = []) {
      const extra = parsed.positionals[count];
      if (extra !== undefined) throw new UsageError(`unexpected argument for ${what}: ${extra}`);
      const foreign = given.find((name) => !(name in GLOBAL_OPTIONS) && !(own as readonly string[]).includes(name));
      if (foreign !== undefined) throw new UsageError(`${what} takes no --${foreign}`);
    },
    settings,
    out: output(values.json === true),
    client(needsToken = true) {
      if (needsToken && settings.token === undefined) {
        throw new UsageError('no token: set COINOP_TOKEN, pass --token, or run `coinop token new --save`');
      }
      return new Coinop({ baseUrl: settings.url, token: settings.token, adminToken: settings.adminToken });
    },
  };
}

/** The positional at `index`, or a usage error naming it. */
export function required(positionals: readonly string[], index: number, name: string): string {
  const value = positionals[index];
  if (value === undefined) throw new UsageError(`missing <${name}>`);
  return value;
}

export function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}
