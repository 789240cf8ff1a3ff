// What the metrics read from a core: the catalog size, the pool counts and the change
// feed. The core stays free of prom-client; this adapter is all the metrics know of it.
import type { Core } from '../core/index.js';
import type { MetricsSources } from './metrics.js';

export function coreSources(core: Core): MetricsSources {
  return {
    servedPrompts: () => core.catalog.size(),
    poolStats: () => core.poolStats(),
    subscribeChanges: (fn) => core.feed.subscribe(fn),
    subscribeAuthFailures: (fn) => core.authFailures.subscribe(fn),
  };
}
