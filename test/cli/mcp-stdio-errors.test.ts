// Issue 37 item 8: `promptd mcp` answers a line that is not JSON with -32700 and a
// JSON value that is not a JSON-RPC message with -32600 (id null, on stdout, as the
// spec says), one short line on stderr each, no stack trace, and keeps serving.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, promptdAsync, tempCwd } from './helpers.js';

beforeAll(assertBuilt);

describe('promptd mcp: malformed input', () => {
  it('answers -32700 / -32600 with id null and goes on serving', async () => {
    const cwd = tempCwd();
    expect((await promptdAsync(['migrate'], { cwd })).code).toBe(0);
    const input = ['garbage', '[1,2]', '{"jsonrpc":"2.0","id":7}', '{"jsonrpc":"2.0","id":1,"method":"ping"}', ''].join('\n');
    const r = await promptdAsync(['mcp'], { cwd, input });
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
    const problems = r.errors.filter((l) => !/^promptd: mcp: (serving|warning)/.test(l));
    expect(problems, r.stderr).toHaveLength(3);
    for (const l of problems) expect(l).toMatch(/^promptd mcp: answered -32(700|600): /);
    expect(r.stderr).not.toMatch(/\n\s+at |ZodError|SyntaxError/);
  });
});
