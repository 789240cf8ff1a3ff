// A second OS process writing to the same database: creates versions of one prompt in
// a loop, each with exactly MESSAGES messages and ARGS arguments, and prints
// `committed <n>` after every commit (the crash test reads it to know what must be
// there). Run with: node --import tsx test/reliability/writer-child.ts <dbUrl> <prompt> <count> [activateEvery]
import { coreOn } from '../helpers/db.js';
import { VersionInputSchema, CreatePromptInputSchema } from '../../src/core/schemas.js';

export const MESSAGES = 7;
export const ARGS = 3;

export function versionBody(i: number) {
  return {
    note: `child write ${i}`,
    arguments: Array.from({ length: ARGS }, (_, k) => ({ name: `a${k}`, description: `argument ${k} of write ${i}`, required: k === 0 })),
    messages: Array.from({ length: MESSAGES }, (_, k) => ({ role: k % 2 ? 'assistant' : 'user', content: { type: 'text', text: `write ${i} message ${k}: {{a0}} ${'x'.repeat(200)}` } })),
  };
}

async function main() {
  const [url, name, countArg, activateEveryArg] = process.argv.slice(2);
  if (!url || !name) throw new Error('usage: writer-child.ts <dbUrl> <prompt> <count> [activateEvery]');
  const count = Number(countArg ?? 1_000_000);
  const activateEvery = Number(activateEveryArg ?? 0);
  const core = await coreOn(url, { poolMax: 2, onError: (e) => process.stderr.write(`feed: ${String(e)}\n`) });
  const actor = { name: 'child' };
  try {
    await core.prompts.create(CreatePromptInputSchema.parse({ name, ...versionBody(0) }), actor);
  } catch (e) {
    if ((e as { code?: string }).code !== 'conflict') throw e;
  }
  process.stdout.write('ready\n');
  for (let i = 1; i <= count; i++) {
    const { created: v } = await core.prompts.createVersion(name, VersionInputSchema.parse(versionBody(i)), actor);
    if (activateEvery && i % activateEvery === 0) await core.prompts.activate(name, v.version, actor);
    process.stdout.write(`committed ${v.version}\n`);
  }
  await core.close();
  process.stdout.write('done\n');
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!);
if (isMain) {
  main().catch((e) => {
    process.stderr.write(`writer-child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
