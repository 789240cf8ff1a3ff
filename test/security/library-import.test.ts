// `promptd import` reads only regular files inside the library (issue 23 #1 and #9,
// issue 24 #9): symbolic links (to /etc/passwd, to a folder outside, to
// /proc/self/environ, to /dev/zero), FIFOs, oversized files and YAML alias bombs are
// each that file's error, the rest of the library still imports, and nothing from
// outside the library reaches the database or MCP clients.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { importLibrary } from '../../src/library/apply.js';
import { projectRoot } from '../../src/db/paths.js';
import { makeCore, tempDbUrl } from '../helpers/db.js';
import { BIN } from '../helpers/spawn.js';
import { tempDir, writeFiles } from '../library/helpers.js';
import { connect } from '../mcp/helpers.js';

const CANARY = `canary-${randomBytes(8).toString('hex')}`;
const PASSWD_MARK = 'root:x:0:0';

const prompt = (name: string, body = `    text: Hello from ${name}.\n`) => `name: ${name}\ndescription: ${name}.\nmessages:\n  - role: user\n${body}`;

/** `promptd import` as a user runs it; the hang guard only turns a hang into a failure. */
function promptd(dbUrl: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, '--database-url', dbUrl, ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', LOG_LEVEL: 'warn', ...env },
    timeout: 120_000,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

async function everyStoredByte(core: Core): Promise<string> {
  const page = await core.resources.list({ limit: 200 });
  const parts: string[] = [];
  for (const meta of page.items) {
    const r = await core.resources.get(meta.id);
    parts.push(r.text ?? '', r.blob ? Buffer.from(r.blob).toString('latin1') : '');
  }
  for (const p of (await core.prompts.list({ limit: 200 })).items) parts.push(JSON.stringify(await core.prompts.get(p.name)));
  return parts.join('\n');
}

beforeAll(() => {
  if (!existsSync(path.join(projectRoot, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build:server` before this test');
});

describe('import: symbolic links', () => {
  it('refuses every link out of the library, per file; MCP never serves a target', async () => {
    const outside = writeFiles(tempDir('pd-outside-'), {
      'secret.txt': `OUTSIDE SECRET ${CANARY}\n`,
      'evil.yaml': prompt('evil', `    text: OUTSIDE PROMPT ${CANARY}\n`),
    });
    const lib = writeFiles(tempDir('pd-lib-'), {
      'prompts/good.yaml': prompt('good', '    resource: notes://good\n'),
      'prompts/media.yaml': prompt('media', '    image: {file: media/pw.png, mimeType: image/png}\n'),
      'resources/good.txt': 'good content\n',
      'resources.yaml': `resources:
  - {uri: notes://good, name: good, mimeType: text/plain, visibility: public, file: resources/good.txt}
  - {uri: "file:///etc/passwd", name: passwd, mimeType: text/plain, file: resources/passwd.txt}
  - {uri: notes://outdir, name: outdir, mimeType: text/plain, file: resources/outdir/secret.txt}
  - {uri: notes://env, name: env, mimeType: text/plain, file: resources/env.txt}
  - {uri: notes://alias, name: alias, mimeType: text/plain, file: resources/alias.txt}
`,
    });
    symlinkSync('/etc/passwd', path.join(lib, 'resources/passwd.txt'));
    symlinkSync(outside, path.join(lib, 'resources/outdir'));
    symlinkSync('/proc/self/environ', path.join(lib, 'resources/env.txt'));
    symlinkSync('good.txt', path.join(lib, 'resources/alias.txt')); // inside, still refused: no links at all
    symlinkSync(path.join(outside, 'evil.yaml'), path.join(lib, 'prompts/evil.yaml'));
    mkdirSync(path.join(lib, 'media'));
    symlinkSync('/etc/passwd', path.join(lib, 'media/pw.png'));

    const url = await tempDbUrl();
    // The importing process holds secrets in its environment, as in the report.
    const r = promptd(url, ['import', lib, '--activate'], { PROMPTD_ADMIN_TOKEN: CANARY, PROMPTD_CANARY: CANARY });
    expect(r.code, r.stderr).toBe(1);
    for (const line of [
      'resources.yaml: resources[1].file: resources/passwd.txt is a symbolic link',
      'resources.yaml: resources[2].file: resources/outdir is a symbolic link',
      'resources.yaml: resources[3].file: resources/env.txt is a symbolic link',
      'resources.yaml: resources[4].file: resources/alias.txt is a symbolic link',
      'prompts/evil.yaml: (file): prompts/evil.yaml is a symbolic link',
      'prompts/media.yaml: messages[0].content.data: media/pw.png is a symbolic link',
    ]) expect(r.stderr).toContain(line);
    expect(r.stdout).toContain('imported: 1 created');

    const core = await makeCore({ url });
    const mcp = await connect(core);
    try {
      expect((await core.resources.list({ limit: 200 })).items.map((x) => x.uri)).toEqual(['notes://good']);
      expect((await core.prompts.list({ limit: 200 })).items.map((x) => x.name)).toEqual(['good']);
      const stored = await everyStoredByte(core);
      expect(stored).toContain('good content');
      expect(stored).not.toContain(CANARY);
      expect(stored).not.toContain(PASSWD_MARK);

      expect((await mcp.client.listResources()).resources.map((x) => x.uri)).toEqual(['notes://good']);
      for (const uri of ['file:///etc/passwd', 'notes://outdir', 'notes://env', 'notes://alias']) {
        await expect(mcp.client.readResource({ uri })).rejects.toThrow();
      }
      await expect(mcp.client.getPrompt({ name: 'media' })).rejects.toThrow();
      await expect(mcp.client.getPrompt({ name: 'evil' })).rejects.toThrow();
      const good = await mcp.client.getPrompt({ name: 'good' });
      expect(JSON.stringify(good)).not.toContain(PASSWD_MARK);
    } finally {
      await mcp.close();
      await core.close();
    }
  });

  it('refuses a linked prompts/ folder and a linked resources.yaml', async () => {
    const outside = writeFiles(tempDir('pd-outside-'), {
      'prompts/evil.yaml': prompt('evil'),
      'resources.yaml': 'resources:\n  - {uri: notes://x, name: x, mimeType: text/plain, text: outside}\n',
    });
    const lib = tempDir('pd-lib-');
    symlinkSync(path.join(outside, 'prompts'), path.join(lib, 'prompts'));
    symlinkSync(path.join(outside, 'resources.yaml'), path.join(lib, 'resources.yaml'));
    const core = await makeCore();
    try {
      const report = await importLibrary(core, lib);
      expect(report.failed).toBe(true);
      expect(report.prompts).toEqual([expect.objectContaining({ file: 'prompts', action: 'error', errors: [expect.objectContaining({ message: expect.stringMatching(/^prompts is a symbolic link/) })] })]);
      expect(report.resources).toEqual([expect.objectContaining({ key: 'resources.yaml', action: 'error', errors: [expect.objectContaining({ message: expect.stringMatching(/^resources.yaml is a symbolic link/) })] })]);
      expect((await core.prompts.list({ limit: 10 })).items).toEqual([]);
      expect((await core.resources.list({ limit: 10 })).items).toEqual([]);
    } finally {
      await core.close();
    }
  });
});

describe('import: special files', () => {
  it('a link to /dev/zero and FIFOs are refused without reading (the import returns, per-file errors)', async () => {
    const lib = writeFiles(tempDir('pd-lib-'), {
      'prompts/good.yaml': prompt('good'),
      'resources.yaml': `resources:
  - {uri: notes://zero, name: zero, mimeType: application/octet-stream, file: resources/zero.bin}
  - {uri: notes://fifo, name: fifo, mimeType: text/plain, file: resources/fifo.txt}
`,
    });
    mkdirSync(path.join(lib, 'resources'));
    symlinkSync('/dev/zero', path.join(lib, 'prompts/zero.yaml'));
    symlinkSync('/dev/zero', path.join(lib, 'resources/zero.bin'));
    // Nobody ever writes to these FIFOs: opening one for reading would block forever.
    for (const f of ['prompts/fifo.yaml', 'resources/fifo.txt']) expect(spawnSync('mkfifo', [path.join(lib, f)]).status).toBe(0);

    const url = await tempDbUrl();
    const r = promptd(url, ['import', lib]);
    expect(r.signal, 'the import hung and was killed').toBeNull();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('prompts/zero.yaml: (file): prompts/zero.yaml is a symbolic link');
    expect(r.stderr).toContain('resources.yaml: resources[0].file: resources/zero.bin is a symbolic link');
    expect(r.stderr).toContain('prompts/fifo.yaml: (file): prompts/fifo.yaml is a FIFO; only regular files are read');
    expect(r.stderr).toContain('resources.yaml: resources[1].file: resources/fifo.txt is a FIFO; only regular files are read');
    expect(r.stdout).toContain('imported: 1 created');
  });
});

describe('import: sizes', () => {
  it('refuses a 200 MB prompt file and a 17 MiB resource file before reading them; the rest imports', async () => {
    const lib = writeFiles(tempDir('pd-lib-'), {
      'prompts/good.yaml': prompt('good'),
      'prompts/huge.yaml': '',
      'resources/big.txt': '',
      'resources.yaml': 'resources:\n  - {uri: notes://big, name: big, mimeType: text/plain, file: resources/big.txt}\n  - {uri: notes://small, name: small, mimeType: text/plain, text: small}\n',
    });
    // Sparse: the size is real for stat and read, but costs no disk.
    truncateSync(path.join(lib, 'prompts/huge.yaml'), 200 * 1024 * 1024);
    truncateSync(path.join(lib, 'resources/big.txt'), 17 * 1024 * 1024);
    const core = await makeCore();
    try {
      const report = await importLibrary(core, lib);
      expect(report.prompts.find((p) => p.file === 'prompts/huge.yaml')).toMatchObject({
        action: 'error',
        errors: [{ path: '(file)', message: 'prompts/huge.yaml is 200 MiB, over the 16 MiB limit for one file (--max-file-size)' }],
      });
      expect(report.resources.find((x) => x.action === 'error')).toMatchObject({
        errors: [{ path: 'resources[0].file', message: 'resources/big.txt is 17 MiB, over the 16 MiB limit for one file (--max-file-size)' }],
      });
      expect(report.counts).toMatchObject({ created: 1, resourcesCreated: 1, errors: 2 });
    } finally {
      await core.close();
    }
  });

  it('--max-file-size and --max-total-size set the limits; a bad size is a usage error', async () => {
    const pad = (name: string, bytes: number) => prompt(name, `    text: ${'x'.repeat(bytes)}\n`);
    const lib = writeFiles(tempDir('pd-lib-'), { 'prompts/a.yaml': pad('a', 600), 'prompts/b.yaml': pad('b', 600), 'prompts/c.yaml': pad('c', 3000) });
    const url = await tempDbUrl();
    const r = promptd(url, ['import', lib, '--dry-run', '--max-file-size', '2KiB', '--max-total-size', '1KiB']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/create\s+a v1/);
    expect(r.stderr).toMatch(/prompts\/b\.yaml: \(file\): prompts\/b\.yaml \(6\d\d bytes\) would take this import over its 1 KiB limit for all files together \(--max-total-size\)/);
    expect(r.stderr).toMatch(/prompts\/c\.yaml: \(file\): prompts\/c\.yaml is 3\.0 KiB, over the 2 KiB limit for one file \(--max-file-size\)/);
    expect(promptd(url, ['import', lib, '--max-file-size', 'lots']).code).toBe(2);
  });
});

describe('import: YAML alias bomb', () => {
  it('is that file\'s error; the other files import', async () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [prev, cur] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g'], ['g', 'h']]) {
      laughs.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    }
    const lib = writeFiles(tempDir('pd-lib-'), {
      'prompts/bomb.yaml': `${laughs.join('\n')}\nname: bomb\n`,
      'prompts/good.yaml': prompt('good'),
      'resources.yaml': `${laughs.join('\n')}\n`,
    });
    writeFileSync(path.join(lib, 'prompts/other.yaml'), prompt('other'));
    const core = await makeCore();
    try {
      const report = await importLibrary(core, lib);
      expect(report.prompts.find((p) => p.file === 'prompts/bomb.yaml')).toMatchObject({
        action: 'error',
        errors: [{ path: '(file)', message: expect.stringMatching(/^cannot parse: Excessive alias count/) }],
      });
      expect(report.resources).toEqual([expect.objectContaining({ key: 'resources.yaml', action: 'error' })]);
      expect(report.counts).toMatchObject({ created: 2, errors: 2 });
      expect((await core.prompts.list({ limit: 10 })).items.map((p) => p.name).sort()).toEqual(['good', 'other']);
    } finally {
      await core.close();
    }
  });
});
