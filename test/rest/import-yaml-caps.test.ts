// Issue #36.5 through the admin API: a front matter or a prompt file over the YAML caps
// (library/yaml-caps.ts) is that file's error, in one line, before any parser builds
// its nodes; the other files import, and the server's memory stays where it was
// (one such body used to block the event loop 20 s and take 2 GB).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { MAX_YAML_NODES } from '../../src/library/yaml-caps.js';
import { makeCore } from '../helpers/db.js';
import { makeClient, TOKEN } from '../helpers/http.js';

let core: Core;
let client: ReturnType<typeof makeClient>;
beforeAll(async () => {
  core = await makeCore({ adminToken: TOKEN });
  client = makeClient(core);
});
afterAll(() => core.close());

const mib = () => Math.round(process.resourceUsage().maxRSS / 1024);
const list = (n: number) => `[${'1,'.repeat(n - 1)}1]`;

describe('POST /import and the YAML caps', () => {
  it('refuses a 4 MB anchored front matter and an 8 MB anchored prompt file, one line each, and imports the rest', async () => {
    const before = mib();
    const res = await client.call('POST', '/import?format=auto', {
      files: [
        { path: '.claude/commands/bomb.md', text: `---\ndescription: &a hello\nlist: ${list(2_000_000)}\n---\nHi\n` },
        { path: 'prompts/x.yaml', text: `name: x\nanchor: &a hi\nmessages: [{role: user, text: *a}]\nlist: ${list(4_000_000)}\n` },
        { path: '.claude/commands/fine.md', text: '---\ndescription: fine\n---\nHello\n' },
      ],
      continueOnError: true,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    const byFile = Object.fromEntries(body.prompts.map((p: { file: string; errors?: unknown }) => [p.file, p.errors]));
    const line = `too many YAML nodes (over ${MAX_YAML_NODES})`;
    expect(byFile['.claude/commands/bomb.md']).toEqual([{ path: 'front matter', message: line }]);
    expect(byFile['prompts/x.yaml']).toEqual([{ path: '(file)', message: line }]);
    expect(byFile['.claude/commands/fine.md']).toBeUndefined();
    expect(body).toMatchObject({ applied: true, failed: true, counts: { created: 1, errors: 2 } });
    expect(mib() - before).toBeLessThan(400);
  });
});
