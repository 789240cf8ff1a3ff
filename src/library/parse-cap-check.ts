// What the reader checks before it parses a large library file itself: that these are
// the bytes the capped worker (parse-cap.ts) parsed within its heap. A file written
// between the two reads (grown, or another text of the same size) would otherwise be
// parsed with no cap at all. Kept apart from parse-cap.ts, which imports the reader.
import { createHash } from 'node:crypto';
import { FileError } from './safe-read.js';

/** Files this size or larger are parsed on the capped worker first. */
export const PARSE_CAP_MIN_BYTES = 64 * 1024;

/** What the capped worker found, per library-relative path. */
export interface ParseCapVerdicts {
  /** the files over the cap, with their message */
  readonly refused: ReadonlyMap<string, string>;
  /** the files it parsed within the cap: the hash of the bytes it parsed */
  readonly fits: ReadonlyMap<string, string>;
}

export const bytesHash = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Throws this file's error when `bytes` are large and not the bytes the worker parsed within its cap. */
export function assertParsedWithinCap(verdicts: ParseCapVerdicts, file: string, bytes: Buffer): void {
  if (bytes.length < PARSE_CAP_MIN_BYTES || verdicts.fits.get(file) === bytesHash(bytes)) return;
  throw new FileError([{ path: '(file)', message: 'changed while the import was reading it; import it again' }]);
}
