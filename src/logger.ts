import { pino, type Logger } from 'pino';

/** Logs go to stderr so that `promptd mcp` keeps stdout for the protocol. */
export function createLogger(level = 'info'): Logger {
  return pino({ level, base: undefined }, pino.destination(2));
}
export type { Logger };
