// The check gate runs before the write transaction, not inside it: a check renders
// and matches patterns for up to CHECK_BUDGET_MS, and holding the write lock that
// long queued every other write behind it (issue #36.6: 5.1 s for an unrelated POST).
// So the gate reads outside any transaction through two wrappers:
//   - recordReads: every read the checks make is remembered, and inside the write
//     transaction the same reads are made again; if any answer differs, what the checks
//     saw is gone and they run again (label-service.ts), else the moves are written.
//   - afterMoves: label pointers read as if the moves were written, so the checks see
//     what the moves make served (includes resolved under the moved label).
//   - withVersions: a version write's versions read as if stored, so a new version's
//     move is checked before the version exists (gated-version-write.ts).
import { createHash } from 'node:crypto';
import type { PromptHead, Repositories } from '../ports.js';
import type { VersionInput } from '../schemas.js';
import { versionFromInput } from './run-checks.js';

interface Read {
  repo: keyof Repositories;
  method: string;
  args: unknown[];
  answer: Promise<unknown>;
}

/** Stable text of an answer (Maps, Sets, dates and bytes included) for comparing two reads. */
function fingerprint(v: unknown): string {
  return JSON.stringify(v, function (this: Record<string, unknown>, k: string, x: unknown) {
    // `this[k]` is the value before toJSON: bytes (a resource's blob) are hashed, not spelled out.
    const raw = this[k];
    if (ArrayBuffer.isView(raw)) return createHash('sha256').update(raw as Uint8Array).digest('base64');
    return x instanceof Map ? [...x.entries()] : x instanceof Set ? [...x] : typeof x === 'bigint' ? String(x) : x;
  });
}

export interface RecordedReads {
  repos: Repositories;
  /** Whether every read made through `repos` answers the same in `tx`. */
  unchanged(tx: Repositories): Promise<boolean>;
  /** Reads made so far (for tests of the bound). */
  readonly count: number;
}

export function recordReads(base: Repositories): RecordedReads {
  const reads: Read[] = [];
  const wrap = <K extends keyof Repositories>(repo: K): Repositories[K] =>
    new Proxy(base[repo], {
      get(target, method, receiver) {
        const value = Reflect.get(target, method, receiver) as unknown;
        if (typeof value !== 'function' || typeof method !== 'string') return value;
        return (...args: unknown[]) => {
          const answer = (value as (...a: unknown[]) => unknown).apply(target, args);
          // Only database reads answer with a promise (or a thenable); a synchronous helper is not one.
          if (typeof (answer as { then?: unknown } | null)?.then !== 'function') return answer;
          const read = Promise.resolve(answer);
          reads.push({ repo, method, args, answer: read });
          return read;
        };
      },
    });
  const repos = Object.fromEntries((Object.keys(base) as (keyof Repositories)[]).map((k) => [k, wrap(k)])) as unknown as Repositories;
  return {
    repos,
    get count() {
      return reads.length;
    },
    async unchanged(tx) {
      for (const r of reads) {
        const before = await r.answer.then(fingerprint, () => 'failed');
        const repo = tx[r.repo] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
        const now = await repo[r.method]!.apply(repo, r.args).then(fingerprint, () => 'failed');
        if (before !== now) return false;
      }
      return true;
    },
  };
}

export interface PlannedMove {
  promptId: number;
  prompt: string;
  label: string;
  to: number | null;
  archived?: boolean;
}

/** `repos` with label pointers read as if `moves` were written. */
export function afterMoves(repos: Repositories, moves: readonly PlannedMove[]): Repositories {
  const key = (prompt: string, label: string) => `${prompt}\u0000${label}`;
  const byName = new Map(moves.map((m) => [key(m.prompt, m.label), m]));
  const byId = new Map<number, PlannedMove[]>();
  for (const m of moves) byId.set(m.promptId, [...(byId.get(m.promptId) ?? []), m]);
  const labels: Repositories['labels'] = Object.create(repos.labels);
  labels.carrying = async (label, prompts) => {
    const found = await repos.labels.carrying(label, prompts);
    const out = found.filter((p) => !byName.has(key(p.prompt, label)));
    const archived = new Map(found.map((p) => [p.prompt, p.archived]));
    for (const m of moves) {
      if (m.label !== label || m.to === null || (prompts && !prompts.includes(m.prompt))) continue;
      out.push({ promptId: m.promptId, prompt: m.prompt, label, version: m.to, archived: archived.get(m.prompt) ?? m.archived ?? false });
    }
    return out.sort((a, b) => (a.prompt < b.prompt ? -1 : a.prompt > b.prompt ? 1 : 0));
  };
  labels.ofPrompts = async (ids) => {
    // A copy: the answer read is also what recordReads compares later.
    const found = new Map(await repos.labels.ofPrompts(ids));
    for (const [id, mine] of byId) {
      if (!ids.includes(id)) continue;
      const kept = (found.get(id) ?? []).filter((l) => !mine.some((m) => m.label === l.label));
      for (const m of mine) if (m.to !== null) kept.push({ label: m.label, version: m.to });
      found.set(id, kept.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)));
    }
    return found;
  };
  return { ...repos, labels };
}

/**
 * `repos` with versions not yet stored read as stored (a version write's candidates):
 * `heads` are the new prompts' heads as the write will insert them, `versions` the
 * inputs by `name\u0000number`. What is answered from here is not a database read, so
 * recordReads does not see it; the reads the plan made to compute it are recorded.
 */
export function withVersions(repos: Repositories, heads: ReadonlyMap<string, PromptHead>, versions: ReadonlyMap<string, VersionInput>): Repositories {
  const prompts: Repositories['prompts'] = Object.create(repos.prompts);
  prompts.head = async (name) => heads.get(name) ?? repos.prompts.head(name);
  prompts.heads = async (names) => {
    const found = new Map(await repos.prompts.heads(names.filter((n) => !heads.has(n))));
    for (const n of names) if (heads.has(n)) found.set(n, heads.get(n)!);
    return found;
  };
  prompts.version = async (name, number) => {
    const input = versions.get(`${name}\u0000${number}`);
    return input ? versionFromInput(input, number) : repos.prompts.version(name, number);
  };
  return { ...repos, prompts };
}
