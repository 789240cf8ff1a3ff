// Drives Prisma's own schema engine compiled to wasm, so migrations can be
// created and applied on machines that cannot download the native binary.
// Databases migrated here are recorded in `_prisma_migrations` exactly as
// `prisma migrate deploy` records them.
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine, MigrationList } from '@prisma/schema-engine-wasm';
import type { DbProvider } from './provider.js';
import { dialectOf } from './dialects.js';

type Bg = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');
let bgPromise: Promise<Bg> | undefined;

function loadWasm(): Promise<Bg> {
  bgPromise ??= (async () => {
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const require = createRequire(import.meta.url);
    const bgPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmBytes = await readFile(path.join(path.dirname(bgPath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(wasmBytes, { './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports });
    (bg as unknown as { __wbg_set_wasm(e: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as unknown as { __wbindgen_start(): void }).__wbindgen_start();
    return bg;
  })();
  return bgPromise;
}

export function schemaPath(provider: DbProvider): string {
  return dialectOf(provider).schemaPath;
}

export function migrationsDir(provider: DbProvider): string {
  return dialectOf(provider).migrationsDir;
}

export async function readMigrations(provider: DbProvider): Promise<MigrationList> {
  const baseDir = migrationsDir(provider);
  const lockPath = path.join(baseDir, 'migration_lock.toml');
  const dirs = existsSync(baseDir)
    ? (await readdir(baseDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    : [];
  const migrationDirectories = await Promise.all(
    dirs.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: await readFile(path.join(baseDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

const filtersOf = (provider: DbProvider) => ({ externalTables: [...dialectOf(provider).externalTables], externalEnums: [] });

export interface EngineHandle {
  engine: SchemaEngine;
  schemaFile: { path: string; content: string };
  provider: DbProvider;
}

/** `adapterFactory` is a Prisma driver adapter factory (better-sqlite3 or pg). */
export async function openEngine(provider: DbProvider, adapterFactory: object, log: (msg: string) => void = () => {}): Promise<EngineHandle> {
  const bg = await loadWasm();
  const file = schemaPath(provider);
  const content = await readFile(file, 'utf8');
  const factory = dialectOf(provider).engineAdapter(adapterFactory);
  const bound = bindMigrationAwareSqlAdapterFactory(factory as Parameters<typeof bindMigrationAwareSqlAdapterFactory>[0]);
  const engine = await bg.SchemaEngine.new({ datamodels: [[file, content]] }, (m: string) => log(m), bound);
  return { engine, schemaFile: { path: file, content }, provider };
}

/** Applies pending migrations; returns the names of those applied now. */
export async function applyMigrations(h: EngineHandle): Promise<string[]> {
  const migrationsList = await readMigrations(h.provider);
  const out = await h.engine.applyMigrations({ migrationsList, filters: filtersOf(h.provider) });
  return out.appliedMigrationNames;
}

/** SQL that takes the database described by the migrations folder to the schema. Empty when in step. */
export async function diffMigrationsToSchema(h: EngineHandle): Promise<string> {
  const migrations = await readMigrations(h.provider);
  const from = migrations.migrationDirectories.length ? { tag: 'migrations' as const, ...migrations } : { tag: 'empty' as const };
  const res = await h.engine.diff({
    from,
    to: { tag: 'schemaDatamodel', files: [h.schemaFile] },
    script: true,
    exitCode: null,
    filters: filtersOf(h.provider),
  });
  return (res as unknown as { stdout?: string }).stdout ?? '';
}
