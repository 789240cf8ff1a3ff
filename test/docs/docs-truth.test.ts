// The docs name only what exists (issue #37, item 20). Every REST route README.md and
// docs/*.md name — `/admin/v1/…` and `/v1/…` anywhere, and `METHOD /path` in prose,
// relative to the admin API, the read API or the root — is a route of the app (its
// Hono routes, with MCP and metrics mounted, or its two OpenAPI documents); every
// `promptd <command> … --flag` is an option of that command in the CLI's commander
// tree (or a global one). Both sets come from the code, so routes and flags other
// branches add are checked as they land. docs/benchmarks.md is a dated log of
// measurements (old routes, bench servers) and is not checked.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { createApp } from '../../src/http/app.js';
import { protectedResourceApp } from '../../src/http/protected-resource.js';
import { createMcpHttpApp, type McpHttpApp } from '../../src/mcp/http.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import type { TestCore } from '../helpers/db.js';
import { freshCore } from '../library/helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCS = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'benchmarks.md').map((f) => `docs/${f}`)];

interface Line { file: string; line: number; text: string; code: boolean }
/** Every line of the docs, and whether it is inside a fenced code block. */
function docLines(): Line[] {
  const out: Line[] = [];
  for (const file of DOCS) {
    let code = false;
    readFileSync(path.join(root, file), 'utf8').split('\n').forEach((text, i) => {
      if (/^\s*```/.test(text)) code = !code;
      else out.push({ file, line: i + 1, text, code });
    });
  }
  return out;
}

// ------------------------------------------------------------------ routes

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
interface Route { method: string; segments: string[] }
const PARAM = /^(\{[^}]*\}|:[\w]+|<[^>]*>|…|N|n)$/;

function segmentsOf(p: string): string[] {
  return p.split('?')[0]!.replace(/\/+$/, '').split('/').filter(Boolean);
}

/** A documented path matches a route segment by segment; a placeholder on either side matches any segment. */
function matches(route: Route, method: string | undefined, segs: string[]): boolean {
  if (method && route.method !== method && route.method !== 'ALL') return false;
  if (route.segments.length !== segs.length) return false;
  return route.segments.every((r, i) => r === segs[i] || PARAM.test(r) || PARAM.test(segs[i]!) || (segs[i]!.includes('{') && /^[\w.-]*\{[^}]+\}[\w.-]*$/.test(segs[i]!)));
}

interface Mention { where: string; method?: string; path: string }
// A path under /admin/v1 or /v1: segments of name characters, `{param}` or `<param>`.
const ABSOLUTE = /(?:\b(GET|POST|PUT|PATCH|DELETE)\s+)?(?:https?:\/\/[\w.:-]+)?(\/(?:admin\/)?v1(?:\/(?:<[^>\s/]+>|\{[^}\s/]+\}|[\w.~%*:-])+)*)/g;
// `GET /x` in prose (outside code blocks): a route relative to the admin API, the read API or the root.
const RELATIVE = /\b(GET|POST|PUT|PATCH|DELETE)\s+`?(\/(?:<[^>\s/]+>|\{[^}\s/]+\}|[\w.~%*-]|\/)*)/g;

function mentions(lines = docLines()): Mention[] {
  const out: Mention[] = [];
  for (const l of lines) {
    const where = `${l.file}:${l.line}`;
    for (const m of l.text.matchAll(ABSOLUTE)) {
      const before = l.text.slice(0, m.index);
      if (/[\w.-]$/.test(before) && !/https?:\/\/[\w.:-]*$/.test(before)) continue; // part of another path (…/mcp/v1)
      out.push({ where, method: m[1], path: m[2]!.replace(/[.:]+$/, '') });
    }
    if (l.code) continue;
    for (const m of l.text.matchAll(RELATIVE)) {
      const p = m[2]!.replace(/[.:]+$/, '');
      if (/^\/(admin\/)?v1(\/|$)/.test(p) || p === '/') continue; // absolute: above
      out.push({ where, method: m[1], path: p });
    }
  }
  return out;
}

// ------------------------------------------------------------------ CLI flags

interface FlagMention { where: string; command: string[]; flag: string }
// An invocation: at the start of a code line or span, or after `$ `, `&&`, `|`, `;`, `(` and
// environment assignments (so `claude mcp add … promptd http://…` names a server, not the CLI).
const CLI = /(?:^|[;&|(]\s*|\$\s+)(?:[A-Z_]+=\S+\s+)*(?:npx\s+)?(?:promptd|node\s+bin\/promptd\.js)((?:\s+[^\s`|;&#)]+)+)/g;

function flagMentions(program: Command, lines = docLines()): FlagMention[] {
  const names = new Set(program.commands.map((c) => c.name()));
  const out: FlagMention[] = [];
  for (const l of lines) {
    // Inline code spans and code lines only: prose says "promptd serving on …" and the like.
    const spans = (l.code ? [l.text] : [...l.text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)).map((t) => t.trim());
    for (const span of spans) {
      for (const m of span.matchAll(CLI)) {
        const words = m[1]!.trim().split(/\s+/);
        const command: string[] = [];
        let cmd: Command = program;
        for (const w of words) {
          const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
          if (sub && !w.startsWith('-')) {
            command.push(w);
            cmd = sub;
            continue;
          }
          if (/^--[a-z]/.test(w)) out.push({ where: `${l.file}:${l.line}`, command: [...command], flag: w.replace(/=.*$/, '').replace(/[.,:)]+$/, '') });
        }
        if (!command.length && words[0] && /^[a-z]+$/.test(words[0]) && !names.has(words[0])) {
          // A code line naming a command that does not exist is a doc error too.
          out.push({ where: `${l.file}:${l.line}`, command: [words[0]], flag: '' });
        }
      }
    }
  }
  return out;
}

function optionsOf(program: Command, path: string[]): Set<string> | undefined {
  const out = new Set<string>(['--help']);
  const add = (c: Command) => c.options.forEach((o: Option) => o.long && out.add(o.long));
  add(program);
  let cmd = program;
  for (const w of path) {
    const sub = cmd.commands.find((c) => c.name() === w);
    if (!sub) return undefined;
    cmd = sub;
    add(cmd);
  }
  // A command with subcommands (token) takes its subcommands' options when the doc names the group only.
  if (cmd.commands.length) cmd.commands.forEach(add);
  // Negatable options: `--no-seed` is the long name itself.
  return out;
}

// ------------------------------------------------------------------ tests

let core: TestCore;
let mcp: McpHttpApp;
let routes: Route[];
beforeAll(async () => {
  core = await freshCore();
  mcp = createMcpHttpApp({ core, host: '127.0.0.1', port: 0 });
  const wellKnown = protectedResourceApp({ issuer: 'https://issuer.example', resource: () => 'http://127.0.0.1:3000/mcp' });
  const app = createApp({ core, mcp: mcp.app, mcpLegacy: mcp.legacyApp, wellKnown, metrics: { instruments: createMetrics(), open: true } });
  // Middleware and static-file fallbacks are registered with `*`: they are not routes a doc may name.
  routes = app.routes.filter((r) => !r.path.includes('*')).map((r) => ({ method: r.method, segments: segmentsOf(r.path) }));
  for (const url of ['/admin/v1/openapi.json', '/v1/openapi.json']) {
    const doc = (await (await app.request(url)).json()) as { servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) routes.push({ method: method.toUpperCase(), segments: segmentsOf(`${doc.servers[0]!.url}${p}`) });
    }
  }
}, 60_000);
afterAll(async () => {
  await mcp?.closeAll();
  await core?.db.close();
});

describe('the docs name only routes that exist', () => {
  it('finds the routes and the mentions (the extraction works)', () => {
    expect(routes.some((r) => r.method === 'POST' && r.segments.join('/') === 'admin/v1/prompts/:name/versions')).toBe(true);
    expect(routes.some((r) => r.method === 'GET' && r.segments.join('/') === 'v1/prompts/{name}')).toBe(true);
    const found = mentions();
    expect(found.length).toBeGreaterThan(100);
    expect(found.some((m) => m.path === '/admin/v1/prompts/{name}/versions' && m.method === 'POST')).toBe(true);
    expect(matches({ method: 'GET', segments: ['admin', 'v1', 'prompts'] }, 'GET', segmentsOf('/admin/v1/nope'))).toBe(false);
  });

  it('every /admin/v1/… and /v1/… path, and every METHOD /path in prose, is a route', () => {
    expect(missingRoutes(mentions())).toEqual([]);
  });

  it('reports a route that does not exist', () => {
    const lines = [
      { file: 'x.md', line: 1, text: 'Call `GET /admin/v1/prompts/{name}/nope` or `DELETE /v1/prompts/{name}`; `POST /nothing` too.', code: false },
      { file: 'x.md', line: 2, text: 'curl http://127.0.0.1:3000/admin/v1/promptz', code: true },
    ];
    expect(missingRoutes(mentions(lines))).toEqual(['x.md:1: GET /admin/v1/prompts/{name}/nope', 'x.md:1: DELETE /v1/prompts/{name}', 'x.md:1: POST /nothing', 'x.md:2: /admin/v1/promptz']);
  });
});

function missingRoutes(found: Mention[]): string[] {
  const missing = found.filter((m) => {
    const segs = segmentsOf(m.path);
    if (/^\/(admin\/)?v1(\/|$)/.test(m.path)) {
      // `/admin/v1`, `/v1` and `/admin/v1/*` name a prefix: some route must be under it.
      const prefix = segs.at(-1) === '*' ? segs.slice(0, -1) : segs.length <= 2 && /^\/(admin\/)?v1\/?$/.test(m.path) ? segs : undefined;
      if (prefix) return !routes.some((r) => r.segments.length > prefix.length && prefix.every((p, i) => r.segments[i] === p));
      return !routes.some((r) => matches(r, m.method, segs));
    }
    // Relative: under the admin API, the read API or the root (probes, metrics, MCP).
    return ![[], ['admin', 'v1'], ['v1']].some((base) => routes.some((r) => matches(r, m.method, [...base, ...segs])));
  });
  return missing.map((m) => `${m.where}: ${m.method ?? ''} ${m.path}`.replace(/: {2}/, ': '));
}

describe('the docs name only CLI commands and flags that exist', () => {
  const program = buildProgram();

  it('finds the commands and flags (the extraction works)', () => {
    const found = flagMentions(program);
    expect(found.length).toBeGreaterThan(20);
    expect(found).toContainEqual(expect.objectContaining({ command: ['sync'], flag: '--watch' }));
    expect(optionsOf(program, ['sync'])?.has('--nope')).toBe(false);
  });

  const wrong = (found: FlagMention[]) =>
    found
      .filter((m) => {
        const opts = optionsOf(program, m.command);
        return !opts || (m.flag !== '' && !opts.has(m.flag));
      })
      .map((m) => `${m.where}: promptd ${m.command.join(' ')} ${m.flag}`.trimEnd());

  it('every `promptd <command> --flag` is an option of that command', () => {
    expect(wrong(flagMentions(program))).toEqual([]);
  });

  it('reports a flag or a command that does not exist', () => {
    const lines = [
      { file: 'x.md', line: 1, text: 'Run `promptd sync ./d --watch --nope` or `npx promptd frobnicate`.', code: false },
      { file: 'x.md', line: 2, text: '$ DATABASE_URL=x promptd token create ci --role reader --colour', code: true },
    ];
    expect(wrong(flagMentions(program, lines))).toEqual(['x.md:1: promptd sync --nope', 'x.md:1: promptd frobnicate', 'x.md:2: promptd token create --colour']);
  });
});
