import { CoinopError, InsufficientCredits, NotFound } from '../errors.js';

/** What the CLI's exit status says failed (README, "TypeScript SDK and the coinop CLI"). */
export const EXIT = {
  ok: 0,
  usage: 1,
  auth: 2,
  insufficientCredits: 3,
  notFound: 4,
  clientError: 5,
  serverOrNetwork: 6,
} as const;

/** A mistake in the command line: printed with the usage, exit 1. */
export class UsageError extends Error {}

/** A call that was answered but did not do what was asked (a DNS lookup nobody answered): its message, and `exitCode`. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof CommandFailed) return error.exitCode;
  if (!(error instanceof CoinopError)) return EXIT.serverOrNetwork;
  if (error.status === 401 || error.status === 403) return EXIT.auth;
  if (error instanceof InsufficientCredits) return EXIT.insufficientCredits;
  if (error instanceof NotFound) return EXIT.notFound;
  if (error.status >= 400 && error.status < 500) return EXIT.clientError;
  return EXIT.serverOrNetwork;
}
