#!/usr/bin/env node
// `prisma generate` for both schema variants, offline. The Prisma CLI downloads a
// native schema-engine binary at start unless PRISMA_SCHEMA_ENGINE_BINARY names an
// existing file; generate never runs that binary, so where none is installed we
// point the variable at a placeholder that fails loudly if anything does run it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toPostgresSchema } from './pg-schema-transform.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };

function hasNativeEngine() {
  if (env.PRISMA_SCHEMA_ENGINE_BINARY && existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) return true;
  const dir = path.join(root, 'node_modules', '@prisma', 'engines');
  return existsSync(dir) && readdirSync(dir).some((f) => f.startsWith('schema-engine'));
}
if (!hasNativeEngine()) env.PRISMA_SCHEMA_ENGINE_BINARY = path.join(root, 'scripts', 'no-schema-engine.sh');

// The PostgreSQL variant is derived from the one model definition (see scripts/pg-schema.ts).
const sqliteSchema = readFileSync(path.join(root, 'prisma', 'schema.prisma'), 'utf8');
const pgSchema = toPostgresSchema(sqliteSchema);
mkdirSync(path.join(root, 'prisma', 'postgres'), { recursive: true });
writeFileSync(path.join(root, 'prisma', 'postgres', 'schema.prisma'), pgSchema);

const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
for (const schema of ['prisma/schema.prisma', 'prisma/postgres/schema.prisma']) {
  execFileSync(process.execPath, [cli, 'generate', '--schema', schema], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
}
