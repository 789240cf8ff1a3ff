// Data written before a fuzz run that the run must leave exactly as it was.
// Names start with `keep`, which the fuzz generators never produce; the ids of the
// sentinel resource and template are excluded from generated paths by `touchesSentinel`.

export type Call = (method: string, path: string, body?: unknown) => Promise<Response> | Response;

export interface Sentinels {
  resourceId: number;
  templateId: number;
}

const ok = async (res: Response, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
};

export async function seedSentinels(call: Call): Promise<Sentinels> {
  const r = await ok(await call('POST', '/resources', { uri: 'mem://keep/doc', name: 'keep doc', mimeType: 'text/plain', text: 'kept text', visibility: 'public' }), 'sentinel resource');
  const t = await ok(await call('POST', '/resource-templates', { uriTemplate: 'keep://{a}', name: 'keep tpl', mimeType: 'text/plain', text: 'A is {{a}}' }), 'sentinel template');
  const messages = (i: number) => [
    { role: 'user', content: { type: 'text', text: `v${i}: {{#who}}Hello {{who}}{{/who}}` } },
    { role: 'assistant', content: { type: 'resource', uri: 'mem://keep/doc' } },
    { role: 'user', content: { type: 'resource', uri: 'keep://{who}' } },
  ];
  await ok(await call('POST', '/prompts', { name: 'keep.alpha', title: 'Kept', arguments: [{ name: 'who', required: false }], messages: messages(1), activate: true }), 'sentinel prompt');
  for (const i of [2, 3]) await ok(await call('POST', '/prompts/keep.alpha/versions', { arguments: [{ name: 'who' }], messages: messages(i), note: `v${i}` }), 'sentinel version');
  await ok(await call('PUT', '/prompts/keep.alpha/active', { version: 2 }), 'sentinel activate');
  await ok(await call('POST', '/prompts', { name: 'keep.beta', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'beta' } }] }), 'sentinel draft');
  // Prompts the fuzzer's names can hit, so writes to existing prompts are exercised too.
  for (const n of ['f1', 'f2', 'f-3']) await ok(await call('POST', '/prompts', { name: n, arguments: [{ name: 'who' }], messages: [{ role: 'user', content: { type: 'text', text: 'hi {{who}}' } }], activate: n !== 'f2' }), 'fuzz prompt');
  return { resourceId: r.id, templateId: t.id };
}

/** Everything observable about the sentinels (minus usedBy, which fuzz prompts may extend). */
export async function snapshotSentinels(call: Call, s: Sentinels): Promise<unknown> {
  const get = async (p: string) => {
    const res = await call('GET', p);
    return { status: res.status, etag: res.headers.get('etag'), body: await res.json() };
  };
  const resource = await get(`/resources/${s.resourceId}`);
  delete (resource.body as { usedBy?: unknown }).usedBy;
  return {
    alpha: await get('/prompts/keep.alpha'),
    alphaVersions: await get('/prompts/keep.alpha/versions?limit=200'),
    alphaRender: await (await call('POST', '/prompts/keep.alpha/render', { arguments: { who: 'Ann' } })).json(),
    beta: await get('/prompts/keep.beta'),
    resource,
    template: await get(`/resource-templates/${s.templateId}`),
  };
}

/** True when a generated path would address a sentinel resource/template by id (ids are coerced with Number()). */
export function touchesSentinel(path: string, s: Sentinels): boolean {
  const m = /^\/(resources|resource-templates)\/([^/?]*)/.exec(path);
  if (!m) return false;
  let seg = m[2]!;
  try {
    seg = decodeURIComponent(seg);
  } catch {
    /* stays encoded */
  }
  const n = Number(seg);
  return n === (m[1] === 'resources' ? s.resourceId : s.templateId);
}
