// The check gate on protected labels (docs/contracts.md, Test cases and checks).
// Every write that moves a label calls it before its write transaction (gated-write.ts;
// gated-version-write.ts for writes of new versions), on reads that see the moves (and
// new versions) as written, and writes only if what the checks read is unchanged:
// checks never hold the write lock.
import { conflict, type FieldError } from '../errors.js';
import type { Repositories } from '../ports.js';
import { renderVersion } from '../render.js';
import { createResourceResolver } from '../resource-resolver.js';
import type { Version } from '../types.js';
import type { VersionInput } from '../schemas.js';
import type { RegexRunner } from './regex-runner.js';
import { reportFailures, runChecks, versionFromInput, type CheckRender } from './run-checks.js';
import { withIncludeCandidatesCache } from './include-candidates-cache.js';

export interface GatedMove {
  prompt: string;
  label: string;
  /** null: the label is removed (never gated) */
  to: number | null;
  /** an admin's `force: true`: failures are recorded instead of refusing */
  force?: boolean;
  /**
   * The target when this same write created it (already validated there): no need to
   * read it back, and without test cases there is nothing left to run (a library
   * import of thousands of prompts stays one round of queries).
   */
  input?: VersionInput;
}

/** One failed check that a forced move overrode; recorded in the move's change event. */
export interface ForcedFailure {
  /** index of the move in the gate's input */
  move: number;
  path: string;
  message: string;
}

/**
 * The prompts whose rendering includes `prompt` under `label` (transitively): their
 * output changes when `prompt`'s `label` moves, so the gate checks them too. The
 * includes work provides the real lookup; until it is merged, noDependents.
 */
export type DependentsLookup = (repos: Repositories, prompt: string, label: string) => Promise<string[]>;
export const noDependents: DependentsLookup = async () => [];

/** Builds the renderer of a check from the transaction's repositories (include resolution needs them). */
export type CheckRenderFactory = (repos: Repositories) => CheckRender;
export const plainCheckRender: CheckRenderFactory = (repos) => {
  const resolver = createResourceResolver(repos);
  return (prompt, version, args) => renderVersion(prompt, version, args, resolver);
};

export type MoveGate = (repos: Repositories, moves: GatedMove[], protectedLabels: ReadonlySet<string>) => Promise<ForcedFailure[]>;

export function createMoveGate({ dependents = noDependents, render = plainCheckRender, regex }: { dependents?: DependentsLookup; render?: CheckRenderFactory; regex: () => RegexRunner }): MoveGate {
  return async (repos, moves, protectedLabels) => {
    const gated = moves.map((m, i) => ({ m, i })).filter(({ m }) => m.to !== null && protectedLabels.has(m.label));
    if (!gated.length) return [];
    const renderer = render(repos);
    const failures: ForcedFailure[] = [];
    const check = async (move: number, prompt: string, version: Version, label: string) => {
      const report = await runChecks(prompt, version, { label, render: renderer, regex: regex() });
      for (const f of reportFailures(report)) failures.push({ move, ...f });
    };
    const moved = new Set(gated.map(({ m }) => `${m.prompt}\u0000${m.label}`));
    const checkedDependents = new Set<string>();
    const lookup = withIncludeCandidatesCache(repos);
    for (const { m, i } of gated) {
      if (m.input) {
        if (m.input.tests?.length) await check(i, m.prompt, versionFromInput(m.input, m.to!), m.label);
      } else {
        const v = await repos.prompts.version(m.prompt, m.to!);
        if (v) await check(i, m.prompt, v, m.label);
      }
      for (const d of await dependents(lookup, m.prompt, m.label)) {
        const key = `${d}\u0000${m.label}`;
        if (moved.has(key) || checkedDependents.has(key)) continue;
        checkedDependents.add(key);
        const head = await repos.prompts.head(d);
        const at = head && (await repos.labels.ofPrompts([head.id])).get(head.id)?.find((l) => l.label === m.label)?.version;
        const dv = at ? await repos.prompts.version(d, at) : null;
        if (dv) await check(i, d, dv, m.label);
      }
    }
    const refused = failures.filter((f) => !moves[f.move]!.force);
    if (refused.length) {
      const labels = [...new Set(refused.map((f) => moves[f.move]!.label))].join(', ');
      const errors: FieldError[] = refused.map(({ path, message }) => ({ path, message }));
      throw conflict(
        `moving ${labels} is refused: ${errors.length === 1 ? '1 check failed' : `${errors.length} checks failed`} (${errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join('; ')}${errors.length > 3 ? '; …' : ''}); fix the version, or an admin may force the move`,
        errors,
      );
    }
    return failures;
  };
}

/** What a forced move's change event records. */
export const forcedDetails = (failures: ForcedFailure[], move: number): Record<string, unknown> => {
  const mine = failures.filter((f) => f.move === move);
  return mine.length ? { forced: true, failedChecks: mine.map(({ path, message }) => ({ path, message })) } : {};
};
