// Runs `matches` patterns off the main thread with a time budget: a pattern the shape
// check (regex-safety.ts) let through that still backtracks badly (`.*.*x` on a long
// text) ends in a failed expectation, never in a stalled server. One worker, one
// pattern at a time; a worker over budget is terminated and the next call starts a new one.
import { Worker } from 'node:worker_threads';

/** Characters of rendered text a `matches` expectation looks at, at most. */
export const MATCH_INPUT_MAX = 100_000;

export type RegexOutcome = { matched: boolean } | { error: string };

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ source, text }) => {
  try { parentPort.postMessage({ matched: new RegExp(source, 'u').test(text) }); }
  catch (e) { parentPort.postMessage({ error: String(e && e.message) }); }
});`;

export interface RegexRunner {
  test(source: string, text: string): Promise<RegexOutcome>;
  close(): Promise<void>;
}

export function createRegexRunner({ budgetMs = 2_000 }: { budgetMs?: number } = {}): RegexRunner {
  let worker: Worker | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  let online: Promise<void> | undefined;
  const start = () => {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    // An idle worker must not keep a CLI process alive.
    w.unref();
    worker = w;
    // The budget is for matching, not for starting a thread (slow on a loaded machine).
    online = new Promise<void>((resolve) => {
      w.once('online', () => resolve());
      w.once('error', () => resolve());
    });
    return w;
  };

  const run = async (source: string, text: string): Promise<RegexOutcome> => {
    const w = worker ?? start();
    await online;
    return new Promise<RegexOutcome>((resolve) => {
      const done = (outcome: RegexOutcome) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        resolve(outcome);
      };
      const onMessage = (m: RegexOutcome) => done(m);
      const onError = (e: Error) => {
        if (worker === w) worker = undefined;
        done({ error: e.message });
      };
      const timer = setTimeout(() => {
        if (worker === w) worker = undefined;
        void w.terminate();
        done({ error: `the pattern took longer than ${budgetMs} ms on this text; simplify it` });
      }, budgetMs);
      w.on('message', onMessage);
      w.on('error', onError);
      w.postMessage({ source, text });
    });
  };

  return {
    test(source, text) {
      if (text.length > MATCH_INPUT_MAX) {
        return Promise.resolve({ error: `the rendered text is ${text.length} characters; matches looks at most ${MATCH_INPUT_MAX} (use contains or maxChars)` });
      }
      const next = queue.then(() => run(source, text));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      await queue;
      await worker?.terminate();
      worker = undefined;
    },
  };
}

let shared: RegexRunner | undefined;
/** The process's runner (its worker is unref'd and started on first use). */
export const sharedRegexRunner = () => (shared ??= createRegexRunner());
