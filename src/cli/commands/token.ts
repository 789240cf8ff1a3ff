import { InvalidArgumentError, type Command } from 'commander';
import { withCore } from '../context.js';
import { UsageError } from '../output.js';
import { ROLES, isRole, type Role } from '../../core/access.js';
import { SettableLabelSchema } from '../../core/schemas.js';
import { isDomainError } from '../../core/errors.js';
import type { TokenSpec } from '../../core/services/token-service.js';
import type { TokenInfo } from '../../core/types.js';

/**
 * Names are validated on create, but rows from before that rule may hold anything:
 * control, format and separator characters print as \u{…}, so no name can forge a row.
 */
export const printable = (s: string) => s.replace(/[\p{C}\p{Zl}\p{Zp}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

/** `editor`, or `mcp staging [team-a,team-b]`. */
const describe = (t: TokenInfo) => (t.kind !== 'admin' ? `${t.kind} ${t.scope?.label ?? ''}${t.scope?.tags ? ` [${t.scope.tags.join(',')}]` : ''}` : (t.role ?? 'admin'));
/** A per-minute rate flag: a whole number from 1 to 1000000, else a usage error naming the flag. */
const perMinute = (flag: string) => (raw: string): number => {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > 1_000_000) throw new InvalidArgumentError(`${flag} takes a whole number of requests per minute from 1 to 1000000 (got "${raw}")`);
  return n;
};

/**
 * Issue 37.14: the first MCP client token locks /mcp for every client without one,
 * connected ones included (docs/access.md), so the CLI says so before it creates it.
 */
export const FIRST_MCP_TOKEN =
  'note: this is the first MCP client token: once it exists, /mcp and /sse refuse every client without a token, ' +
  'those connected now included (anonymous MCP access ends; stdio `promptd mcp` is not affected). ' +
  'There is no option to keep anonymous access on loopback: to get it back, revoke every MCP token (promptd token revoke <id>).\n';

export function registerToken(program: Command): void {
  const token = program.command('token').description('manage admin API, MCP client and app (read API) tokens (stored hashed)');
  token
    .command('create <name>')
    .description('create a token and print it once: an admin API token with a role, with --mcp an MCP client token, or with --app a read API token for one application')
    .option('--role <role>', `admin API tokens: ${ROLES.join(', ')} (default admin)`)
    .option('--mcp', 'an MCP client token (for /mcp only, never the admin API)')
    .option('--app', 'an application token: the read API (/v1) only, its --label and --tag scope only')
    .option('--label <label>', 'MCP and app tokens: the release label whose view the client sees (default production)')
    .option('--tag <tag>', 'MCP and app tokens: only prompts carrying this tag (repeat for any of several)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--rate-mcp <n>', 'MCP requests per minute for this token (default: the instance setting)', perMinute('--rate-mcp'))
    .option('--rate-writes <n>', 'admin API writes per minute for this token (default: the instance setting)', perMinute('--rate-writes'))
    .addHelpText('after', '\nExamples:\n  $ promptd token create ci-bot --role editor\n  $ promptd token create cursor-team-a --mcp --label staging --tag team-a\n  $ promptd token create shop-frontend --app --tag shop\n  $ promptd token create agent --rate-mcp 100 --rate-writes 10')
    .action(async (name: string, o: { role?: string; mcp?: boolean; app?: boolean; label?: string; tag?: string[]; rateMcp?: number; rateWrites?: number }, cmd: Command) => {
      if (o.mcp && o.app) throw new UsageError('--mcp and --app are two kinds of token: give one');
      if (!o.mcp && !o.app && (o.label !== undefined || o.tag !== undefined)) throw new UsageError('--label and --tag are for MCP and app tokens: add --mcp or --app');
      if ((o.mcp || o.app) && o.role !== undefined) throw new UsageError(`--role is for admin API tokens; an ${o.mcp ? 'MCP' : 'app'} token sees one label (and tags), never the admin API`);
      if (o.role !== undefined && !isRole(o.role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      // A label's spelling is the command line's fault (exit 2); whether it is known is the core's.
      const label = o.label === undefined ? undefined : SettableLabelSchema.safeParse(o.label);
      if (label && !label.success) throw new UsageError(`--label ${o.label}: ${label.error.issues[0]!.message}`);
      const spec: TokenSpec = o.mcp || o.app ? { kind: o.mcp ? 'mcp' : 'app', label: o.label, tags: o.tag ?? null } : { kind: 'admin', role: o.role as Role | undefined };
      await withCore(cmd, 'write', async (core) => {
        if (o.mcp && !process.env.PROMPTD_MCP_TOKEN && !process.env.PROMPTD_OAUTH_ISSUER && !(await core.tokens.mcpTokensExist())) process.stderr.write(FIRST_MCP_TOKEN);
        const { token: t, info } = await core.tokens.create(name, 'cli', { ...spec, mcpRatePerMinute: o.rateMcp, writeRatePerMinute: o.rateWrites }).catch((e: unknown) => {
          // An unknown --label (src/core/known-labels.ts) is a usage error naming the known labels.
          throw isDomainError(e) && e.code === 'not_found' && e.errors[0]?.path === 'label' ? new UsageError(`--label ${o.label}: ${e.message}`) : e;
        });
        process.stderr.write(`created ${describe(info)} token #${info.id} "${printable(info.name)}"; it is shown only once:\n`);
        process.stdout.write(`${t}\n`);
      });
    });
  token
    .command('list')
    .description('list tokens (never their values)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      await withCore(cmd, 'read', async (core) => {
        const list = await core.tokens.list();
        if (opts.json) return void process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        if (!list.length) return void process.stdout.write('no tokens\n');
        for (const t of list) {
          const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : 'active';
          const used = t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : 'never used';
          const rates = t.mcpRatePerMinute !== null || t.writeRatePerMinute !== null ? `  rates mcp ${t.mcpRatePerMinute ?? 'default'}/min writes ${t.writeRatePerMinute ?? 'default'}/min` : '';
          process.stdout.write(`${String(t.id).padStart(4)}  ${printable(t.prefix)}…  ${printable(t.name).padEnd(20)}  ${describe(t).padEnd(12)}  ${state}  created ${t.createdAt.toISOString()}  ${used}${rates}\n`);
        }
      });
    });
  token
    .command('revoke <idOrPrefix>')
    .description('revoke a token by id or prefix (an ambiguous prefix revokes nothing); takes effect immediately')
    .action(async (idOrPrefix: string, _o: unknown, cmd: Command) => {
      if (!idOrPrefix.trim()) throw new UsageError('token revoke: a token id or prefix is required (`promptd token list` shows them)');
      await withCore(cmd, 'write', async (core) => {
        const t = await core.tokens.revoke(idOrPrefix);
        process.stdout.write(`revoked token #${t.id} "${printable(t.name)}"\n`);
      });
    });
}
