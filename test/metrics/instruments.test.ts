// createMetrics on its own: registries are per app, change-feed lag is measured
// against the injected clock, and pool gauges exist only where there is a pool.
import { describe, expect, it } from 'vitest';
import { createMetrics, type MetricsSources } from '../../src/metrics/metrics.js';
import { parseExposition } from '../helpers/prometheus.js';

function sources(pool: ReturnType<MetricsSources['poolStats']>) {
  let deliver: (events: { at: Date }[]) => void = () => {};
  const s: MetricsSources = {
    servedPrompts: () => 7,
    poolStats: () => pool,
    subscribeChanges: (fn) => {
      deliver = fn;
      return () => {};
    },
  };
  return { s, deliver: (events: { at: Date }[]) => deliver(events) };
}

const read = async (m: ReturnType<typeof createMetrics>) => parseExposition((await m.scrape()).body);

describe('createMetrics', () => {
  it('measures change-feed lag from each event to the moment the feed delivers it', async () => {
    const m = createMetrics({ defaultMetrics: false, now: () => 10_000 });
    const { s, deliver } = sources(null);
    m.watch(s);
    deliver([{ at: new Date(7_500) }, { at: new Date(9_000) }]);
    const x = await read(m);
    expect(x.value('promptd_change_feed_lag_seconds_count')).toBe(2);
    expect(x.value('promptd_change_feed_lag_seconds_sum')).toBe(3.5);
    expect(x.value('promptd_change_feed_lag_seconds_bucket', { le: '1' })).toBe(1);
    expect(x.value('promptd_catalog_served_prompts')).toBe(7);
  });

  it('exports pool gauges only when the database has a pool', async () => {
    const none = createMetrics({ defaultMetrics: false });
    none.watch(sources(null).s);
    expect((await read(none)).all('promptd_db_pool_connections')).toEqual([]);
    const pooled = createMetrics({ defaultMetrics: false });
    pooled.watch(sources({ total: 3, idle: 2, waiting: 1, max: 10 }).s);
    const x = await read(pooled);
    expect([x.value('promptd_db_pool_connections'), x.value('promptd_db_pool_idle_connections'), x.value('promptd_db_pool_waiting_requests'), x.value('promptd_db_pool_max_connections')]).toEqual([3, 2, 1, 10]);
  });

  it('keeps each registry apart', async () => {
    const a = createMetrics({ defaultMetrics: false });
    const b = createMetrics({ defaultMetrics: false });
    a.http.request('GET', '/healthz', 200, 0.001);
    a.mcp.request('streamable_http', 'prompts/get', 'ok', 0.002);
    expect((await read(a)).value('promptd_http_requests_total', { route: '/healthz' })).toBe(1);
    expect((await read(b)).all('promptd_http_requests_total')).toEqual([]);
    expect((await read(b)).all('promptd_mcp_requests_total')).toEqual([]);
  });
});
