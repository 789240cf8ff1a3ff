// Configuration from the environment (spec §4); flags override.
import { normaliseDatabaseUrl } from './db/create-db.js';

export interface Config {
  databaseUrl: string;
  host: string;
  port: number;
  adminToken?: string;
  mcpToken?: string;
  instanceId?: string;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Config> = {}): Config {
  const port = flags.port ?? Number(env.PORT ?? 3000);
  return {
    databaseUrl: normaliseDatabaseUrl(flags.databaseUrl ?? env.DATABASE_URL),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    port: Number.isInteger(port) && port >= 0 && port < 65536 ? port : 3000,
    adminToken: flags.adminToken ?? (env.PROMPTD_ADMIN_TOKEN || undefined),
    mcpToken: flags.mcpToken ?? (env.PROMPTD_MCP_TOKEN || undefined),
    instanceId: flags.instanceId ?? (env.PROMPTD_INSTANCE_ID?.match(/^[A-Za-z0-9_]{1,32}$/) ? env.PROMPTD_INSTANCE_ID : undefined),
    logLevel: flags.logLevel ?? env.LOG_LEVEL ?? 'info',
  };
}

export const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) || host.startsWith('127.');
