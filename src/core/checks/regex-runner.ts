// Runs `matches` patterns off the main thread on RE2 (regex-safety.ts): matching is
// linear in the text, but 100 test cases × 32 patterns over 100,000 characters is
// still seconds of work, which must not hold the event loop. One worker, one pattern
// at a time. Each call may carry a deadline (the budget of one check call, not of
// one pattern) and an abort signal (the client went away): past either, the worker
// is terminated and the next call starts a new one.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Characters of rendered text a `matches` expectation looks at, at most. */
export const MATCH_INPUT_MAX = 100_000;

export type RegexOutcome = { matched: boolean } | { error: string };

/** What bounds one call: the check call's deadline (Date.now() ms) and its client's signal. */
export interface RegexLimits {
  deadline?: number;
  signal?: AbortSignal;
}

// The worker is evaluated as CommonJS: it loads re2js by the path this module resolves.
const RE2JS_PATH = createRequire(import.meta.url).resolve('re2js');
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { RE2JS } = require(${JSON.stringify(RE2JS_PATH)});
const compiled = new Map();
parentPort.on('message', ({ source, text }) => {
  try {
    let re = compiled.get(source);
    if (!re) {
      if (compiled.size >= 256) compiled.clear();
      compiled.set(source, (re = RE2JS.compile(source)));
    }
    parentPort.postMessage({ matched: re.matcher(text).find() });
  } catch (e) { parentPort.postMessage({ error: String(e && e.message) }); }
});`;

export interface RegexRunner {
  test(source: string, text: string, limits?: RegexLimits): Promise<RegexOutcome>;
  close(): Promise<void>;
}

export const CANCELLED = 'not judged: the check was cancelled (the client went away)';
/** Why an expectation was not judged once its check call's deadline passed. */
export const BUDGET_SPENT = 'not judged: this check call spent its time budget for patterns; run fewer or shorter test cases';

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

  const run = async (source: string, text: string, limits: RegexLimits): Promise<RegexOutcome> => {
    if (limits.signal?.aborted) return { error: CANCELLED };
    if (limits.deadline !== undefined && Date.now() >= limits.deadline) return { error: BUDGET_SPENT };
    const w = worker ?? start();
    // Referenced while a pattern is in flight: an idle CLI process would otherwise exit
    // (code 13, unsettled await) while it waits for the thread to start or answer.
    w.ref();
    await online;
    const deadline = limits.deadline ?? Date.now() + budgetMs;
    return new Promise<RegexOutcome>((resolve) => {
      const done = (outcome: RegexOutcome) => {
        clearTimeout(timer);
        limits.signal?.removeEventListener('abort', onAbort);
        w.unref();
        w.off('message', onMessage);
        w.off('error', onError);
        resolve(outcome);
      };
      const stop = (why: string) => {
        if (worker === w) worker = undefined;
        void w.terminate();
        done({ error: why });
      };
      const onMessage = (m: RegexOutcome) => done(m);
      const onError = (e: Error) => {
        if (worker === w) worker = undefined;
        done({ error: e.message });
      };
      const onAbort = () => stop(CANCELLED);
      const over = limits.deadline !== undefined ? BUDGET_SPENT : `the pattern took longer than ${budgetMs} ms on this text; simplify it`;
      const timer = setTimeout(() => stop(over), Math.max(0, deadline - Date.now()));
      limits.signal?.addEventListener('abort', onAbort, { once: true });
      w.on('message', onMessage);
      w.on('error', onError);
      w.postMessage({ source, text });
    });
  };

  return {
    test(source, text, limits = {}) {
      if (text.length > MATCH_INPUT_MAX) {
        return Promise.resolve({ error: `the rendered text is ${text.length} characters; matches looks at most ${MATCH_INPUT_MAX} (use contains or maxChars)` });
      }
      const next = queue.then(() => run(source, text, limits));
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
