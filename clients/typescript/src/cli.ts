#!/usr/bin/env node
// The `coinop` command: one word from the table in cli/commands.ts, then its arguments. Exit codes: cli/exit-codes.ts.
import { CoinopError } from './errors.js';
import { COMMANDS } from './cli/commands.js';
import { EXIT, UsageError, exitCodeFor } from './cli/exit-codes.js';

const GLOBAL_HELP = `Options for every command: --json (machine-readable output), --url <base URL>, --token <token>, -h/--help.
Settings: COINOP_URL and COINOP_TOKEN, else the config file (~/.config/coinop/config.json; coinop token new --save writes it).
Exit codes: 0 ok, 1 usage, 2 auth, 3 insufficient credits, 4 not found, 5 other client error, 6 server or network.`;

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((word) => word.length));
  const lines = Object.entries(COMMANDS).map(([word, command]) => `  ${word.padEnd(width)}  ${command.summary}`);
  return `Usage: coinop <command> [arguments] [options]\n\nCommands:\n${lines.join('\n')}\n\n${GLOBAL_HELP}`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [word, ...args] = argv;
  if (word === undefined || word === 'help' || word === '--help' || word === '-h') {
    process.stdout.write(`${help()}\n`);
    return word === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[word];
  if (command === undefined) {
    process.stderr.write(`coinop: unknown command: ${word}\n\n${help()}\n`);
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
    const code = exitCodeFor(error);
    if (error instanceof UsageError) process.stderr.write(`coinop ${word}: ${error.message}\n\n${command.usage}\n`);
    else if (error instanceof CoinopError) process.stderr.write(`coinop ${word}: ${error.name}: ${error.message}\n`);
    else process.stderr.write(`coinop ${word}: ${error instanceof Error ? error.message : String(error)}\n`);
    return code;
  }
}

process.exitCode = await main(process.argv.slice(2));
