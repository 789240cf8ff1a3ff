// `zip` in POST /import: a base64 zip unpacked in memory into the same {path, text} list
// as `files`, under the same limits. Nothing touches the disk.
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import { invalid, isDomainError } from '../../core/errors.js';

export interface ZipLimits {
  maxFiles: number;
  /** Uncompressed bytes of all entries together. */
  maxBytes: number;
  /** Entry names are held to the same rules as `files[i].path`; returns the message, or null when fine. */
  checkPath: (path: string) => string | null;
}

// Compressed bytes handed to the inflater at a time: deflate expands at most ~1032×, so one
// step can overshoot the cap by a few MiB at worst before it is noticed.
const STEP = 4 * 1024;

const refuse = (path: string, message: string) => invalid(`the zip is refused: ${path}: ${message}`, [{ path, message }]);
/** Folders, and the resource forks macOS adds when it zips a folder. */
const ignored = (name: string) => name.endsWith('/') || name.startsWith('__MACOSX/');

export function unzipFiles(base64: string, limits: ZipLimits): { path: string; text: string }[] {
  const bytes = Buffer.from(base64, 'base64');
  const checkEntry = (name: string) => {
    const problem = limits.checkPath(name);
    if (problem) throw refuse(`zip/${name}`, problem);
  };

  // 1. The central directory: names, count and declared sizes, refused before anything is inflated.
  let count = 0;
  let declared = 0;
  try {
    unzipSync(bytes, {
      filter: (f) => {
        if (ignored(f.name)) return false;
        checkEntry(f.name);
        if (f.compression !== 0 && f.compression !== 8) throw refuse(`zip/${f.name}`, `compression method ${f.compression} is not supported (use deflate or store)`);
        if (++count > limits.maxFiles) throw refuse('zip', `more than ${limits.maxFiles} files`);
        declared += f.originalSize;
        if (declared > limits.maxBytes) throw refuse('zip', `the files unpack to more than ${limits.maxBytes} bytes`);
        return false;
      },
    });
  } catch (e) {
    throw unreadable(e);
  }

  // 2. Inflate from the local headers, counting what comes out: declared sizes can lie.
  const entries = new Map<string, Uint8Array[]>();
  let total = 0;
  let stop: Error | null = null;
  const uz = new Unzip((file) => {
    if (ignored(file.name)) return;
    checkEntry(file.name);
    if (entries.has(file.name)) throw refuse(`zip/${file.name}`, 'appears twice');
    if (entries.size >= limits.maxFiles) throw refuse('zip', `more than ${limits.maxFiles} files`);
    const chunks: Uint8Array[] = [];
    entries.set(file.name, chunks);
    file.ondata = (err, data) => {
      if (stop) return;
      if (err) return void (stop = refuse(`zip/${file.name}`, `cannot be unpacked: ${err.message}`));
      total += data.length;
      if (total > limits.maxBytes) {
        stop = refuse('zip', `the files unpack to more than ${limits.maxBytes} bytes`);
        return file.terminate();
      }
      chunks.push(data);
    };
    file.start();
  });
  uz.register(UnzipInflate);
  try {
    for (let i = 0; i < bytes.length && !stop; i += STEP) uz.push(bytes.subarray(i, i + STEP), i + STEP >= bytes.length);
  } catch (e) {
    throw unreadable(e);
  }
  if (stop) throw stop;
  if (!entries.size) throw refuse('zip', 'contains no files');

  const utf8 = new TextDecoder('utf-8', { fatal: true });
  return [...entries].map(([path, chunks]) => {
    try {
      return { path, text: utf8.decode(Buffer.concat(chunks)) };
    } catch {
      throw refuse(`zip/${path}`, 'is not UTF-8 text');
    }
  });
}

function unreadable(e: unknown) {
  if (isDomainError(e)) return e;
  return refuse('zip', `is not a readable zip archive (${e instanceof Error ? e.message : String(e)})`);
}
