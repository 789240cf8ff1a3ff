// The layer rules of docs/architecture.md, checked on the source: the core imports
// neither Prisma, nor pg, nor Hono, nor the MCP SDK, nor src/db; only src/db imports
// Prisma and pg; and SQLite/PostgreSQL branches live in the dialect alone.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/db/paths.js';

const src = path.join(projectRoot, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'generated' ? [] : files(p);
    return /\.tsx?$/.test(d.name) ? [p] : [];
  });
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

const rel = (f: string) => path.relative(projectRoot, f);
/** Resolved path of a relative specifier, relative to the project. */
const target = (file: string, spec: string) => (spec.startsWith('.') ? rel(path.resolve(path.dirname(file), spec)) : spec);

const all = files(src);
const core = all.filter((f) => rel(f).startsWith('src/core/'));

describe('layers', () => {
  it('finds the files it checks (a test that reads nothing would pass)', () => {
    expect(core.length).toBeGreaterThan(15);
    expect(imports(path.join(src, 'core', 'index.ts'))).toContain('./ports.js');
  });

  it('src/core imports neither Prisma, nor pg, nor Hono, nor the MCP SDK, nor src/db', () => {
    const banned = /^(@prisma\/|prisma$|pg$|pg\/|hono$|hono\/|@hono\/|@modelcontextprotocol\/)|^src\/(db|generated|rest|mcp|http|cli|library)\//;
    const offenders = core.flatMap((f) => imports(f).filter((s) => banned.test(target(f, s))).map((s) => `${rel(f)} imports ${s}`));
    expect(offenders).toEqual([]);
  });

  it('only src/db imports Prisma, pg or the generated clients', () => {
    const banned = /^(@prisma\/|pg$|pg\/)|^src\/generated\//;
    const outside = all.filter((f) => !rel(f).startsWith('src/db/'));
    const offenders = outside.flatMap((f) => imports(f).filter((s) => banned.test(target(f, s))).map((s) => `${rel(f)} imports ${s}`));
    expect(offenders).toEqual([]);
  });

  it('only src/metrics imports prom-client (the core and the other faces call its typed instruments)', () => {
    const offenders = all
      .filter((f) => !rel(f).startsWith('src/metrics/'))
      .flatMap((f) => imports(f).filter((s) => /^prom-client(\/|$)/.test(s)).map((s) => `${rel(f)} imports ${s}`));
    expect(offenders).toEqual([]);
    expect(all.some((f) => rel(f).startsWith('src/metrics/') && imports(f).includes('prom-client'))).toBe(true);
  });

  it('no `provider ===` (or !==) outside the dialect', () => {
    const offenders = all
      .filter((f) => !/^src\/db\/dialect[^/]*\.ts$/.test(rel(f)))
      .filter((f) => /\bprovider\s*[!=]==/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('outside src/db nothing branches on SQLite-only open options (the CLI passes them through opaque)', () => {
    const offenders = all
      .filter((f) => !rel(f).startsWith('src/db/'))
      .filter((f) => /\.sqlite\b(?!['"])/.test(readFileSync(f, 'utf8').replace(/\/\/.*$/gm, '')))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('the faces reach storage only through the core (no Store, Db or repository use outside the composition roots)', () => {
    const roots = new Set(['src/server.ts', 'src/cli/context.ts', 'src/cli/commands/mcp.ts', 'src/cli/commands/migrate.ts', 'src/config.ts']);
    const faces = all.filter((f) => /^src\/(rest|mcp|http|library|cli)\//.test(rel(f)) && !roots.has(rel(f)));
    const offenders = faces.flatMap((f) =>
      imports(f)
        .filter((s) => /^src\/db\/|^src\/core\/(ports|services\/version-writes)\.js$/.test(target(f, s)))
        .map((s) => `${rel(f)} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
