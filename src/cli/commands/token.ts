import type { Command } from 'commander';
import { withCore } from '../context.js';

export function registerToken(program: Command): void {
  const token = program.command('token').description('manage admin API tokens (stored hashed)');
  token
    .command('create <name>')
    .description('create a token and print it once')
    .addHelpText('after', '\nExample:\n  $ promptd token create ci-bot')
    .action(async (name: string, _o: unknown, cmd: Command) => {
      await withCore(cmd, async (core) => {
        const { token: t, info } = await core.tokens.create(name);
        process.stderr.write(`created token #${info.id} "${info.name}"; it is shown only once:\n`);
        process.stdout.write(`${t}\n`);
      });
    });
  token
    .command('list')
    .description('list tokens (never their values)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      await withCore(cmd, async (core) => {
        const list = await core.tokens.list();
        if (opts.json) return void process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        if (!list.length) return void process.stdout.write('no tokens\n');
        for (const t of list) {
          const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : 'active';
          process.stdout.write(`${String(t.id).padStart(4)}  ${t.prefix}…  ${t.name.padEnd(20)}  ${state}  created ${t.createdAt.toISOString()}\n`);
        }
      });
    });
  token
    .command('revoke <idOrPrefix>')
    .description('revoke a token by id or prefix; takes effect immediately')
    .action(async (idOrPrefix: string, _o: unknown, cmd: Command) => {
      await withCore(cmd, async (core) => {
        const t = await core.tokens.revoke(idOrPrefix);
        process.stdout.write(`revoked token #${t.id} "${t.name}"\n`);
      });
    });
}
