// PROMPTD_METRICS read by a real `promptd serve` (bin/promptd.js on dist/): `1` opens
// /metrics, anything unreadable stops start-up naming the variable.
import { describe, expect, it } from 'vitest';
import { runPromptd, startServe } from '../helpers/spawn.js';
import { tempDbUrl } from '../helpers/db.js';
import { parseExposition } from '../helpers/prometheus.js';

describe('promptd serve and PROMPTD_METRICS', () => {
  it('PROMPTD_METRICS=1 serves /metrics without a token', async () => {
    const srv = await startServe({ DATABASE_URL: await tempDbUrl(), PROMPTD_ADMIN_TOKEN: 'serve-metrics-token', PROMPTD_METRICS: '1' });
    try {
      const res = await fetch(`${srv.base}/metrics`);
      expect(res.status).toBe(200);
      expect(parseExposition(await res.text()).value('promptd_http_requests_total', { route: '/readyz', status: '200' })).toBeGreaterThanOrEqual(1);
    } finally {
      await srv.stop();
    }
  }, 90_000);

  it('an unreadable PROMPTD_METRICS is a configuration error (exit 2) naming it', async () => {
    const bad = runPromptd(['serve'], { DATABASE_URL: await tempDbUrl(), PORT: '0', PROMPTD_METRICS: 'public' });
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/PROMPTD_METRICS must be 1 or 0 .*got "public"/);
  }, 60_000);
});
