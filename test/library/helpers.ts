// Shared set-up for the library tests: real SQLite files in temp directories.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateDatabase } from '../../src/db/create-db.js';
import { coreOn, tempDbUrl, type TestCore } from '../helpers/db.js';
import type { Argument } from '../../src/core/index.js';

export function tempDir(prefix = 'pd-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A fresh database: a temp SQLite file, or PostgreSQL when PROMPTD_TEST_DB=postgres. */
export async function freshCore(): Promise<TestCore> {
  const url = await tempDbUrl();
  await migrateDatabase(url);
  return coreOn(url);
}

/** Writes `{relativePath: content}` under dir (creating folders); returns dir. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): string {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return dir;
}

/** Row counts that any write would change: "nothing written" means these stay equal. */
export async function snapshot(core: TestCore) {
  const p = core.db.prisma;
  return {
    prompts: await p.prompt.count(),
    versions: await p.promptVersion.count(),
    events: await p.changeEvent.count(),
    resources: await p.resource.count(),
    templates: await p.resourceTemplate.count(),
    revisions: (await p.prompt.findMany({ select: { name: true, revision: true, activeVersionId: true }, orderBy: { name: 'asc' } })),
  };
}

/**
 * Argument sets for rendering a prompt: only the required ones, and all of them.
 * Choices use the first choice; URI-valued arguments (`fileUri`) a stored resource.
 */
export function argumentSets(args: Argument[]): Record<string, string>[] {
  const value = (a: Argument) =>
    a.choices?.[0] ?? (/uri$/i.test(a.name) ? 'file:///project/src/orders/checkout.ts' : `sample ${a.name} {{not a tag}}`);
  const required = Object.fromEntries(args.filter((a) => a.required).map((a) => [a.name, value(a)]));
  const all = Object.fromEntries(args.map((a) => [a.name, value(a)]));
  return [required, all];
}
