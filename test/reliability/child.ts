// Spawning writer-child.ts as a separate OS process (through tsx), and checking that
// every stored version is whole.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../../src/db/paths.js';
import type { Db } from '../../src/db/create-db.js';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'writer-child.ts');

export interface Writer {
  child: ChildProcess;
  /** Highest version number the child has reported as committed. */
  committed(): number;
  ready: Promise<void>;
  exited: Promise<number | null>;
  stderr(): string;
}

export function spawnWriter(url: string, prompt: string, count: number, activateEvery = 0): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, url, prompt, String(count), String(activateEvery)], {
    cwd: projectRoot,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let committed = 0;
  let onReady: () => void;
  const ready = new Promise<void>((r) => (onReady = r));
  child.stdout!.on('data', (d) => {
    out += d;
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const l of lines) {
      if (l === 'ready') onReady();
      const m = /^committed (\d+)$/.exec(l);
      if (m) committed = Math.max(committed, Number(m[1]));
    }
  });
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, committed: () => committed, ready, exited, stderr: () => err };
}

/**
 * Every version of every prompt is whole: numbered 1..latest without gaps, with the
 * given number of messages and arguments; the active version (if any) belongs to it.
 */
export async function expectWholeVersions(core: { db: Db }, expected: (prompt: string, version: number) => { messages: number; arguments: number }) {
  // Whole tables and group-bys: no IN lists, so it works for thousands of prompts.
  const { prisma } = core.db;
  const prompts = await prisma.prompt.findMany({ select: { id: true, name: true, latestVersion: true, activeVersionId: true } });
  const versions = await prisma.promptVersion.findMany({ select: { id: true, promptId: true, number: true }, orderBy: [{ promptId: 'asc' }, { number: 'asc' }] });
  const count = async (table: string) => {
    const rows = await prisma.$queryRawUnsafe<{ versionId: number; n: number | bigint }[]>(`SELECT "versionId", COUNT(*) AS n FROM "${table}" GROUP BY "versionId"`);
    return new Map(rows.map((r) => [Number(r.versionId), Number(r.n)]));
  };
  const messages = await count('PromptMessage');
  const args = await count('PromptArgument');
  const byPrompt = new Map<number, { id: number; number: number }[]>();
  for (const v of versions) byPrompt.set(v.promptId, [...(byPrompt.get(v.promptId) ?? []), v]);
  const problems: string[] = [];
  for (const p of prompts) {
    const own = byPrompt.get(p.id) ?? [];
    const numbers = own.map((v) => v.number);
    if (numbers.join() !== Array.from({ length: p.latestVersion }, (_, i) => i + 1).join()) problems.push(`${p.name}: versions ${numbers.join(',')} but latestVersion ${p.latestVersion}`);
    if (p.activeVersionId !== null && !own.some((v) => v.id === p.activeVersionId)) problems.push(`${p.name}: active version is not one of its versions`);
    for (const v of own) {
      const want = expected(p.name, v.number);
      const got = { messages: messages.get(v.id) ?? 0, arguments: args.get(v.id) ?? 0 };
      if (got.messages !== want.messages || got.arguments !== want.arguments) {
        problems.push(`${p.name} v${v.number}: ${got.messages} messages, ${got.arguments} arguments (want ${want.messages}, ${want.arguments})`);
      }
    }
  }
  const ids = new Set(prompts.map((p) => p.id));
  if (versions.some((v) => !ids.has(v.promptId))) problems.push('versions without a prompt');
  return { prompts: prompts.length, versions: versions.length, problems };
}
