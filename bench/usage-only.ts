// Section 6 alone (prompts/get with usage recording on vs off): `npx tsx bench/usage-only.ts`;
// BENCH_USAGE_AA=1 makes both sides "off" (an A/A run: the bias of the setup itself).
import { runUsageOverhead } from './usage-overhead.js';
import { removeTempDirs } from './lib/proc.js';
const r = await runUsageOverhead({ quick: false, log: (s) => console.log(s) });
console.log(`on ÷ off ${r.ratio.toFixed(3)}× (median pair ${r.medianPairRatio.toFixed(3)}×); CPU per request ${r.on.cpuUs.toFixed(1)} vs ${r.off.cpuUs.toFixed(1)} µs`);
removeTempDirs();
