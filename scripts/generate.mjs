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

// The generated client imports the query compiler as a module exporting the wasm as a
// base64 string literal: V8 then holds that 4.3 MB string twice for the life of the
// process (the module's source and the literal; 8.4 MiB of heap with nothing served,
// bench/history.md, section 17). Reading the same file as text and decoding it leaves
// both to the collector once the wasm is compiled.
const importCompiler = /const \{ wasm \} = await import\(("@prisma\/client\/runtime\/query_compiler_[a-z]+_bg\.[a-z]+\.wasm-base64\.mjs")\)\n(\s*)return await decodeBase64AsWasm\(wasm\)/;
for (const variant of ['sqlite', 'postgres']) {
  const file = path.join(root, 'src', 'generated', variant, 'internal', 'class.ts');
  const src = readFileSync(file, 'utf8');
  const m = importCompiler.exec(src);
  if (!m) throw new Error(`${file}: the query compiler's import was not found; update scripts/generate.mjs for this Prisma version`);
  const [, specifier, indent] = m;
  const replacement = [
    `const { readFile } = await import('node:fs/promises')`,
    `${indent}const { fileURLToPath } = await import('node:url')`,
    `${indent}// promptd (scripts/generate.mjs): the file's text, not the module, so the base64 string is not kept`,
    `${indent}const text = await readFile(fileURLToPath(import.meta.resolve(${specifier})), 'latin1')`,
    // The module is: const wasm = "<base64>"; export { wasm }. (A regular expression with {1024,} compiled to ~20 MB.)
    `${indent}const start = text.indexOf('"') + 1`,
    `${indent}const wasm = text.slice(start, text.indexOf('"', start))`,
    `${indent}if (wasm.length < 1024) throw new Error('no base64 wasm in ' + ${specifier})`,
    `${indent}return await decodeBase64AsWasm(wasm)`,
  ].join('\n');
  writeFileSync(file, src.replace(importCompiler, replacement));
}
