#!/usr/bin/env node
// The `coinop` command: one word from the table in cli/commands.ts, then its arguments. Exit codes: cli/exit-codes.ts.
import { parseArgs } from 'node:util';
import { COMMANDS } from './cli/commands.js';
import { GLOBAL_OPTIONS } from './cli/command.js';
import { EXIT, exitCodeFor } from './cli/exit-codes.js';
import { failureReport } from './cli/failure.js';
import { resolveSettings } from './settings.js';
import type { Settings } from './settings.js';

const GLOBAL_HELP = `Options for every command: --json (machine-readable output), --url <base URL>, --token <token>, -h/--help.
Settings: COINOP_URL and COINOP_TOKEN, else the config file (~/.config/coinop/config.json; coinop token new --save writes it),
else http://localhost:8080 (where npm start serves). The SDK reads the same settings in the same order.
Exit codes: 0 ok, 1 usage, 2 auth, 3 insufficient credits, 4 not found, 5 other client error, 6 server or network.`;

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((word) => word.length));
  const lines = Object.entries(COMMANDS).map(([word, command]) => `  ${word.padEnd(width)}  ${command.summary}`);
  return `Usage: coinop <command> [arguments] [options]\n\nCommands:\n${lines.join('\n')}\n\n${GLOBAL_HELP}`;
}

/**
 * The options every command takes (GLOBAL_OPTIONS) but help, which main answers itself, as they may also come before
 * the command word: true when one takes a value.
 */
const LEADING_OPTIONS: Readonly<Record<string, boolean>> = Object.fromEntries(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([name]) => name !== 'help')
    .map(([name, option]) => [`--${name}`, option.type === 'string']),
);

/**
 * The command word and its arguments. Options every command takes may come before the word, as in
 * `coinop --url http://host:8080 kv get a b` (the habit of git, docker and kubectl): they are passed on in front of
 * the command's own arguments, so an argument after `--` stays an argument.
 */
function commandLine(argv: readonly string[]): { word: string | undefined; args: string[] } {
  let at = 0;
  for (;;) {
    const arg = argv[at];
    if (arg === undefined) break;
    const name = arg.split('=', 1)[0] as string;
    const takesValue = LEADING_OPTIONS[name];
    if (takesValue === undefined) break;
    const valueApart = takesValue && name === arg;
    if (valueApart && argv[at + 1] === undefined) break; // said in main: the option needs a value
    at += valueApart ? 2 : 1;
  }
  const [word, ...rest] = argv.slice(at);
  return { word, args: [...argv.slice(0, at), ...rest] };
}

async function main(argv: readonly string[]): Promise<number> {
  const { word, args } = commandLine(argv);
  if (word === undefined || word === 'help' || word === '--help' || word === '-h') {
    process.stdout.write(`${help()}\n`);
    return word === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[word];
  if (command === undefined) {
    const what =
      LEADING_OPTIONS[word] === true
        ? `${word} needs a value`
        : word.startsWith('-')
          ? `unknown option before the command: ${word}`
          : `unknown command: ${word}`;
    process.stderr.write(`coinop: ${what}\n\n${help()}\n`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    await command.run(args);
    return EXIT.ok;
  } catch (error) {
    process.stderr.write(`${await failureReport(word, command.usage, error, settingsOf(args))}\n`);
    return exitCodeFor(error);
  }
}

/** The settings the command ran with, for the failure report; undefined when they cannot be read (a broken config file). */
function settingsOf(args: readonly string[]): Settings | undefined {
  try {
    const { values } = parseArgs({ args: [...args], options: GLOBAL_OPTIONS, strict: false, allowPositionals: true });
    return resolveSettings({
      url: typeof values.url === 'string' ? values.url : undefined,
      token: typeof values.token === 'string' ? values.token : undefined,
    });
  } catch {
    return undefined;
  }
}

process.exitCode = await main(process.argv.slice(2));
