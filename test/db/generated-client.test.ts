import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// scripts/generate.mjs rewrites how the generated clients load Prisma's query compiler:
// importing its base64 module kept the 4.3 MB string twice for the life of the process.
describe.each(['sqlite', 'postgres'])('the generated %s client', (variant) => {
  const src = readFileSync(`src/generated/${variant}/internal/class.ts`, 'utf8');
  it('reads the query compiler module as text instead of importing it', () => {
    expect(src).not.toMatch(/await import\("@prisma\/client\/runtime\/query_compiler_[a-z]+_bg\.[a-z]+\.wasm-base64\.mjs"\)/);
    expect(src).toMatch(/await readFile\(fileURLToPath\(import\.meta\.resolve\("@prisma\/client\/runtime\/query_compiler_[a-z]+_bg\.[a-z]+\.wasm-base64\.mjs"\)\), 'latin1'\)/);
  });
  it('uses the small query compiler build (prisma/schema.prisma, compilerBuild)', () => {
    expect(src).toMatch(/query_compiler_small_bg\.[a-z]+\.wasm-base64\.mjs/);
    expect(src).not.toMatch(/query_compiler_fast_bg/);
  });
});
