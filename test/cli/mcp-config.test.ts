// Issue 37 items 5 and 6: `mcp --print-config` carries every serving flag into the
// client's entry, and `mcp --label X` counts what X's view serves.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerMcp } from '../../src/cli/commands/mcp.js';
import { BIN } from '../helpers/spawn.js';
import { tempDbUrl } from '../helpers/db.js';
import { assertBuilt, promptdAsync, runAll, tempCwd } from './helpers.js';

beforeAll(assertBuilt);

// A value each flag accepts; a flag added to `promptd mcp` without one here fails the test.
const SAMPLES: Record<string, string[]> = {
  '--page-size': ['20'],
  '--prompt-tools': [],
  '--no-tools': [],
  '--label': ['staging'],
};

describe('promptd mcp --print-config', () => {
  it('puts every serving flag of the mcp command into the printed args', async () => {
    const program = new Command();
    registerMcp(program);
    const mcp = program.commands.find((c) => c.name() === 'mcp')!;
    const flags = mcp.options.map((o) => o.long!).filter((f) => f !== '--print-config');
    expect(flags.length).toBeGreaterThan(3);
    for (const f of flags) expect(SAMPLES, `no sample value for ${f}: add one so the test covers it`).toHaveProperty([f]);
    const cwd = tempCwd();
    const results = await runAll(flags.map((f) => () => promptdAsync(['mcp', '--print-config', f, ...SAMPLES[f]!], { cwd })));
    results.forEach((r, i) => {
      expect(r.code, r.stderr).toBe(0);
      const entry = JSON.parse(r.stdout).mcpServers.promptd;
      expect(entry.args).toEqual([BIN, 'mcp', flags[i], ...SAMPLES[flags[i]!]!]);
      expect(entry.command).toBe(process.execPath);
    });
    const all = await promptdAsync(['mcp', '--label', 'staging', '--print-config', 'vscode', '--page-size', '7'], { cwd });
    expect(JSON.parse(all.stdout).servers.promptd.args).toEqual([BIN, 'mcp', '--page-size', '7', '--label', 'staging']);
  });
});

describe('promptd mcp --label', () => {
  it('counts the prompts of the label view it serves', { timeout: 240_000 }, async () => {
    const cwd = tempCwd();
    const env = { DATABASE_URL: await tempDbUrl() };
    const seeded = await promptdAsync(['seed', '-q'], { cwd, env });
    expect(seeded.code, seeded.stderr).toBe(0);
    mkdirSync(path.join(cwd, 'lib', 'prompts'), { recursive: true });
    writeFileSync(path.join(cwd, 'lib', 'prompts', 'staged.yaml'), 'name: staged\nmessages:\n  - role: user\n    text: hi\n');
    const imp = await promptdAsync(['import', 'lib', '--label', 'staging'], { cwd, env });
    expect(imp.code, imp.stderr).toBe(0);
    const [prod, staging, latest] = await runAll(['production', 'staging', 'latest'].map((l) => () => promptdAsync(['mcp', '--label', l], { cwd, env })));
    const served = (r: { stderr: string }) => Number(/mcp: serving (\d+) prompts? from /.exec(r.stderr)?.[1]);
    expect(served(staging!), staging!.stderr).toBe(1);
    expect(staging!.stderr).not.toMatch(/warning/);
    expect(served(prod!)).toBeGreaterThan(1);
    expect(served(latest!)).toBe(served(prod!) + 1);
  });
});
