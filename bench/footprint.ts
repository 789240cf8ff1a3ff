// 5. Footprint: cold start of `promptd serve` (spawn → first 200 from /readyz) on an
// empty SQLite database and on the 100,000-prompt one, and the RSS of the process
// serving 100,000 prompts (after start, and after walking prompts/list and 1,000
// prompts/get).
import path from 'node:path';
import { copyFileSync } from 'node:fs';
import { ARG, ARG_VALUE, promptName } from './lib/fixture.js';
import { RawSession } from './lib/mcp-raw.js';
import { rssOf, startServe, tempDir } from './lib/proc.js';
import { median } from './lib/stats.js';

export interface FootprintResult {
  coldEmptyMs: number[];
  coldFullMs: number[];
  rssReady: number;
  rssServing: number;
  peak: number;
  listedPages: number;
}

export async function runFootprint(fullDbFile: string, prompts: number, opts: { quick: boolean; log: (s: string) => void }): Promise<FootprintResult> {
  const times = opts.quick ? 2 : 3;
  const coldEmptyMs: number[] = [];
  for (let i = 0; i < times; i++) {
    const s = await startServe(`file:${path.join(tempDir(), 'empty.db')}`);
    coldEmptyMs.push(s.readyMs);
    await s.stop();
  }
  opts.log(`  cold start, empty database: ${coldEmptyMs.map((t) => `${t.toFixed(0)} ms`).join(', ')}`);
  const coldFullMs: number[] = [];
  let rssReady = NaN;
  let rssServing = NaN;
  let peak = NaN;
  let listedPages = 0;
  for (let i = 0; i < times; i++) {
    // A copy, so every start reads the file from a cold-ish page cache state alike.
    const file = path.join(tempDir(), 'full.db');
    copyFileSync(fullDbFile, file);
    const s = await startServe(`file:${file}`);
    coldFullMs.push(s.readyMs);
    if (i === times - 1) {
      rssReady = rssOf(s.pid).rss;
      const session = new RawSession(new URL(`${s.base}/mcp`));
      await session.open();
      let cursor: string | undefined;
      for (let page = 0; page < prompts; page++) {
        const r = (await session.request('prompts/list', cursor ? { cursor } : {})).result as { nextCursor?: string };
        listedPages++;
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      for (let k = 0; k < 1000; k++) await session.request('prompts/get', { name: promptName((k * 97) % prompts), arguments: { [ARG]: ARG_VALUE } });
      await session.close();
      ({ rss: rssServing, peak } = rssOf(s.pid));
    }
    await s.stop();
  }
  opts.log(`  cold start, ${prompts} prompts: ${coldFullMs.map((t) => `${t.toFixed(0)} ms`).join(', ')}; RSS ${rssReady.toFixed(0)} MiB ready, ${rssServing.toFixed(0)} MiB serving, peak ${peak.toFixed(0)} MiB`);
  return { coldEmptyMs, coldFullMs, rssReady, rssServing, peak, listedPages };
}

export const coldMedian = (xs: number[]) => median(xs);
