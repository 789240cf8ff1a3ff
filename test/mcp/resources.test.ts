// resources/list, templates, read, subscribe and resource-template completion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../../src/core/index.js';
import { ResourceInputSchema } from '../../src/core/schemas.js';
import { actor, connect, createResource, newCore, PNG_BASE64, rpcError, until } from './helpers.js';

let core: Core;
let mcp: Awaited<ReturnType<typeof connect>>;
const uris = ['file:///project/README.md', 'file:///project/src/main.ts', 'file:///project/src/util.ts', 'file:///other/x.txt', 'repo://acme/widgets', 'repo://acme/gadgets', 'repo://other/widgets'];

beforeAll(async () => {
  core = await newCore();
  for (const uri of uris) await createResource(core, { uri, name: uri.split('/').at(-1), mimeType: 'text/plain', text: `content of ${uri}` });
  await createResource(core, { uri: 'mem://logo.png', name: 'logo', title: 'Logo', mimeType: 'image/png', blob: PNG_BASE64 });
  await core.resources.createTemplate({ uriTemplate: 'file:///project/{+path}', name: 'project file', mimeType: 'text/plain', text: 'no such file: {{path}}' }, actor);
  await core.resources.createTemplate({ uriTemplate: 'repo://{owner}/{name}', name: 'repository', description: 'a repo', mimeType: 'text/markdown', text: '# {{owner}}/{{name}}' }, actor);
  mcp = await connect(core, { pageSize: 3 });
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await core?.close();
});

describe('resources', () => {
  it('lists stored resources in keyset pages, sorted by URI', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await mcp.client.listResources(cursor ? { cursor } : {});
      expect(page.resources.length).toBeLessThanOrEqual(3);
      seen.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...uris, 'mem://logo.png'].sort());
    const logo = (await mcp.client.listResources({ cursor: undefined })).resources;
    expect(logo.every((r) => typeof r.name === 'string' && r.mimeType)).toBe(true);
  });

  it('rejects a forged resources cursor with -32602', async () => {
    expect((await rpcError(mcp.client.listResources({ cursor: 'eyJrIjoiYWRtaW4tcmVzb3VyY2VzIiwidiI6InoifQ.AAAAAAAAAAAAAAAAAAAAAA' }))).code).toBe(-32602);
  });

  it('lists resource templates', async () => {
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual({ uriTemplate: 'repo://{owner}/{name}', name: 'repository', description: 'a repo', mimeType: 'text/markdown' });
    expect(resourceTemplates).toHaveLength(2);
  });

  it('reads text, base64 blobs, and template resources rendered from the URI', async () => {
    expect((await mcp.client.readResource({ uri: 'file:///project/src/main.ts' })).contents).toEqual([
      { uri: 'file:///project/src/main.ts', mimeType: 'text/plain', text: 'content of file:///project/src/main.ts' },
    ]);
    expect((await mcp.client.readResource({ uri: 'mem://logo.png' })).contents).toEqual([{ uri: 'mem://logo.png', mimeType: 'image/png', blob: PNG_BASE64 }]);
    expect((await mcp.client.readResource({ uri: 'repo://someone/thing' })).contents).toEqual([{ uri: 'repo://someone/thing', mimeType: 'text/markdown', text: '# someone/thing' }]);
  });

  it('an unknown URI → -32602 naming it', async () => {
    const err = await rpcError(mcp.client.readResource({ uri: 'nothing://here' }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('nothing://here');
  });

  it('sends resources/updated for subscribed URIs only, and list_changed on create', async () => {
    const updated: string[] = [];
    let listChanged = 0;
    mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    mcp.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    await mcp.client.subscribeResource({ uri: 'file:///project/README.md' });
    await mcp.client.subscribeResource({ uri: 'file:///other/x.txt' });
    await mcp.client.unsubscribeResource({ uri: 'file:///other/x.txt' });

    const all = await core.resources.list({ limit: 50 });
    const byUri = new Map(all.items.map((r) => [r.uri, r.id]));
    const edit = (uri: string) => core.resources.update(byUri.get(uri)!, ResourceInputSchema.parse({ uri, name: 'x', mimeType: 'text/plain', text: 'new' }), actor);
    await edit('file:///other/x.txt');
    await edit('file:///project/src/util.ts');
    await edit('file:///project/README.md');
    await until(() => updated.length >= 1, 3_000, 'resources/updated');
    expect(updated).toEqual(['file:///project/README.md']);
    expect((await mcp.client.readResource({ uri: 'file:///project/README.md' })).contents[0]).toMatchObject({ text: 'new' });

    listChanged = 0;
    await createResource(core, { uri: 'file:///new.txt', name: 'new', mimeType: 'text/plain', text: 'n' });
    await until(() => listChanged >= 1, 3_000, 'resources/list_changed');
  });
});

describe('completion/complete for resource template variables', () => {
  const complete = (uri: string, name: string, value: string, context?: Record<string, string>) =>
    mcp.client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });

  it('completes from stored resources matching the template', async () => {
    const { completion } = await complete('file:///project/{+path}', 'path', 'src');
    expect(completion.values).toEqual(['src/main.ts', 'src/util.ts']);
    const util = await complete('file:///project/{+path}', 'path', 'util');
    expect(util.completion).toEqual({ values: ['src/util.ts'], total: 1, hasMore: false });
  });

  it('honours context.arguments', async () => {
    expect((await complete('repo://{owner}/{name}', 'name', '')).completion.values).toEqual(['gadgets', 'widgets']);
    expect((await complete('repo://{owner}/{name}', 'name', '', { owner: 'other' })).completion.values).toEqual(['widgets']);
    expect((await complete('repo://{owner}/{name}', 'owner', 'o')).completion.values).toEqual(['other']);
  });

  it('an unknown template or variable → -32602', async () => {
    expect((await rpcError(complete('nope://{x}', 'x', ''))).code).toBe(-32602);
    const err = await rpcError(complete('repo://{owner}/{name}', 'branch', ''));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('"branch"');
  });
});
