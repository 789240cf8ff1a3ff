// A small parser of the Prometheus text exposition format (version 0.0.4), enough to
// read the samples a scrape returns and check each line is well formed.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** `# TYPE` of each metric family. */
  types: Map<string, string>;
  /** The value of the one sample of `name` whose labels include `labels` (undefined: none; throws when several match). */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every sample of `name` whose labels include `labels`. */
  all(name: string, labels?: Record<string, string>): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/gy;

const unescape = (v: string) => v.replace(/\\(["\\n])/g, (_m, c: string) => (c === 'n' ? '\n' : c));

function parseValue(raw: string): number {
  if (raw === '+Inf') return Infinity;
  if (raw === '-Inf') return -Infinity;
  const n = Number(raw);
  if (raw.toLowerCase() === 'nan') return NaN; // prom-client writes `Nan`; Prometheus reads any case
  if (Number.isNaN(n)) throw new Error(`not a sample value: ${raw}`);
  return n;
}

function parseLabels(raw: string | undefined, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!raw) return labels;
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let m = LABEL.exec(raw); m; m = LABEL.exec(raw)) {
    labels[m[1]!] = unescape(m[2]!);
    consumed = LABEL.lastIndex;
  }
  if (consumed !== raw.length) throw new Error(`malformed labels in: ${line}`);
  return labels;
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (line.startsWith('#')) {
      const t = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (t) types.set(t[1]!, t[2]!);
      else if (!line.startsWith('# HELP ')) throw new Error(`unexpected comment: ${line}`);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    samples.push({ name: m[1]!, labels: parseLabels(m[2], line), value: parseValue(m[3]!) });
  }
  const all = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    samples,
    types,
    all,
    value(name, labels) {
      const found = all(name, labels);
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}
