// Derives the PostgreSQL variant of the schema from the one model definition.
// The transform itself lives in scripts/pg-schema-transform.mjs (shared with generate.mjs).
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../src/db/paths.js';
import { toPostgresSchema } from './pg-schema-transform.mjs';

export { toPostgresSchema };

export async function writePostgresSchema(): Promise<string> {
  const src = await readFile(path.join(projectRoot, 'prisma', 'schema.prisma'), 'utf8');
  const target = path.join(projectRoot, 'prisma', 'postgres', 'schema.prisma');
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, toPostgresSchema(src));
  return target;
}
