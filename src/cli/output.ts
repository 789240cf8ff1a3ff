import { isDomainError } from '../core/errors.js';

export class UsageError extends Error {}

const useColour = () => process.stderr.isTTY && !process.env.NO_COLOR;
export const red = (s: string) => (useColour() ? `\x1b[31m${s}\x1b[0m` : s);
export const bold = (s: string) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\x1b[1m${s}\x1b[0m` : s);

/** Friendly errors; stack traces only with --verbose. Exit code 1. */
export function fail(e: unknown, verbose: boolean): void {
  // A message that already says its field errors ("invalid token: label: …") lists them once.
  const listed = isDomainError(e) ? e.errors.filter((x) => !e.message.includes(x.message)) : [];
  const msg = isDomainError(e)
    ? `${e.message}${listed.length ? '\n' + listed.map((x) => `  ${x.path}: ${x.message}`).join('\n') : ''}`
    : e instanceof Error
      ? e.message
      : String(e);
  process.stderr.write(`${red('promptd: error:')} ${msg}\n`);
  if (verbose && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  process.exitCode = 1;
}
