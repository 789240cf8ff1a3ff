// fast-check generators of hostile input for the admin REST API and for /mcp.
// Shared by the fuzz tests (a few hundred cases in `npm test`) and bench/soak.ts
// (tens of thousands against a listening server). Sentinel data (names starting
// with `keep`) is never generated, so "previously written data intact" can be checked.
import fc from 'fast-check';

/** Strings that have broken parsers, templates, SQL and URI handling somewhere. */
export const NASTY = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', '\udfff\ud800', '\uffff', '\u202e', '𝕏', '👩‍👩‍👧', 'é', '\r\n', '\t',
  '{{x}}', '{{#a}}{{/a}}', '{{>p}}', '{{=<% %>=}}', '{{{x}}}', '{{', '}}', '{+x}', '{x', 'x}', '{?a,b}', '{/a*}',
  `x'; DROP TABLE "Prompt";--`, `' OR '1'='1`, '"; --', '%', '%00', '%ZZ', '%E0%A4%A', '../..', '../../etc/passwd', 'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/', 'javascript:alert(1)', '<script>alert(1)</script>', '__proto__', 'constructor', 'prototype',
  'toString', 'hasOwnProperty', 'null', 'undefined', 'NaN', 'Infinity', '-1', '0', '1e400', '0x10', '9007199254740993', '2147483648',
  '-0', '1.5', 'true', '[]', '{}', '\\', '/', '//', '?', '#', '&', '=', ';', ',', '@', '.', '..', '*', 'W/"1"', '"1"',
];

export const nastyString = fc.constantFrom(...NASTY);

/** Long strings around the limits (kept moderate: the soak sends many). */
export const longString = fc.oneof(
  fc.constantFrom(129, 257, 2_049, 4_001, 100_001).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 1, max: 5_000 }).map((n) => '{{x}}'.repeat(n)),
);

export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: longString },
);

const anyNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2, 3, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e300, 0.5, -0),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, biased towards hostile strings and odd numbers. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyString,
    anyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(anyString, fc.constantFrom('name', 'type', 'role', 'text', 'uri', 'version', 'arguments', 'messages')), tie('value'), { maxKeys: 4 }),
  ),
})).value as fc.Arbitrary<unknown>;

/** Names the fuzzer may create or touch: never a sentinel (`keep…`). */
export const fuzzName = fc.oneof(
  fc.constantFrom('f1', 'f2', 'f-3', 'f.4', 'F_5'),
  fc.stringMatching(/^f[A-Za-z0-9_.-]{0,20}$/),
);

/** Mostly harmless text, sometimes hostile: bodies then fail in one field at a time, or succeed. */
const field: fc.Arbitrary<string> = fc.oneof(
  { weight: 15, arbitrary: fc.stringMatching(/^[A-Za-z0-9 .,!-]{1,24}$/) },
  { weight: 1, arbitrary: anyString },
);
const argName = fc.oneof({ weight: 8, arbitrary: fc.constantFrom('who', 'x', 'topic') }, { weight: 1, arbitrary: anyString });
const role = fc.oneof({ weight: 20, arbitrary: fc.constantFrom('user', 'assistant') }, { weight: 1, arbitrary: anyString });
const boundUri = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('mem://keep/doc', 'keep://{who}', '{+who}', 'keep://{x}/{+topic}', 'mem://f/x', 'logs://{?who,x}') },
  { weight: 1, arbitrary: anyString },
);

const content = fc.oneof(
  { weight: 12, arbitrary: fc.record({ type: fc.constant('text'), text: fc.oneof(field, fc.constantFrom('Hi {{who}}', '{{#who}}{{who}}{{/who}}', '{{^x}}none{{/x}}', '{{topic}}')) }) },
  { weight: 4, arbitrary: fc.record({ type: fc.constantFrom('resource', 'resource_link'), uri: boundUri }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('image', 'audio'), resourceUri: boundUri }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('image', 'audio'), data: fc.oneof(fc.base64String({ maxLength: 64 }), anyString), mimeType: fc.oneof(fc.constant('image/png'), field) }) },
  { weight: 1, arbitrary: anyJson },
);

const argument = fc.record(
  {
    name: argName,
    required: fc.oneof({ weight: 15, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyJson }),
    description: field,
    choices: fc.oneof({ weight: 15, arbitrary: fc.array(field, { minLength: 1, maxLength: 3 }) }, { weight: 1, arbitrary: anyJson }),
    maxLength: fc.oneof({ weight: 15, arbitrary: fc.integer({ min: 1, max: 200 }) }, { weight: 1, arbitrary: anyNumber }),
  },
  { requiredKeys: ['name'] },
);

/** Replaces one key of a valid-looking object with any JSON value, some of the time. */
const mutated = <T extends Record<string, unknown>>(valid: fc.Arbitrary<T>, keys: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 1, arbitrary: fc.tuple(valid, fc.constantFrom(...keys), anyJson).map(([v, k, j]): T => ({ ...v, [k]: j })) },
  );

/** Bodies for create/new-version: mostly almost-valid, so that they reach deep validation and sometimes succeed. */
export const versionBody = mutated(
  fc.record(
    {
      name: fuzzName,
      title: field,
      description: field,
      note: field,
      icons: fc.array(fc.record({ src: field, mimeType: fc.constantFrom('image/png', 'image/svg+xml') }, { requiredKeys: ['src'] }), { maxLength: 2 }),
      arguments: fc.uniqueArray(argument, { maxLength: 3, selector: (a) => a.name }),
      messages: fc.array(fc.record({ role, content }), { minLength: 1, maxLength: 3 }),
      activate: fc.boolean(),
    },
    { requiredKeys: ['name', 'messages', 'arguments'] },
  ),
  ['name', 'title', 'description', 'note', 'icons', 'arguments', 'messages', 'activate', 'extra'],
);

export const resourceBody = mutated(
  fc.record(
    { uri: fc.oneof(fuzzName.map((n) => `mem://${n}`), anyString), name: field, mimeType: fc.oneof(fc.constant('text/plain'), field), text: field, title: field },
    { requiredKeys: ['uri', 'name', 'mimeType'] },
  ).chain((r) => fc.oneof(fc.constant(r), fc.base64String({ maxLength: 64 }).map((blob) => ({ ...r, text: undefined, blob })))),
  ['uri', 'name', 'mimeType', 'text', 'blob', 'title', 'extra'],
);

export const templateBody = mutated(
  fc.record(
    { uriTemplate: fc.oneof(fc.constantFrom('f://{a}', 'f://{+a}{+b}{+c}', 'f://{?a,b}', 'f://{a}/{b}'), fuzzName.map((n) => `f://${n}/{a}`), anyString), name: field, mimeType: fc.constant('text/plain'), text: fc.oneof(field, fc.constant('{{a}}')) },
    { requiredKeys: ['uriTemplate', 'name', 'mimeType', 'text'] },
  ),
  ['uriTemplate', 'name', 'mimeType', 'text'],
);

const smallInt = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 5 }) }, { weight: 1, arbitrary: anyNumber });

export const renderBody = mutated(
  fc.record({ version: smallInt, arguments: fc.dictionary(argName, field, { maxKeys: 3 }) }, { requiredKeys: ['arguments'] }),
  ['version', 'arguments'],
);
export const activateBody = mutated(fc.record({ version: smallInt }), ['version', 'extra']);
export const patchBody = mutated(fc.record({ name: fuzzName, archived: fc.boolean() }, { requiredKeys: [] }), ['name', 'archived']);

/** A body as it goes on the wire: JSON of a structured or random value, or broken text. */
export const wireBody = (structured: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: structured.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', '[', 'nul', '{"name":"\\ud800"}', '\u0000', '{"a":1}{"b":2}', '"\\u0000"', '1e999') },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)) },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)) },
  );

/** A path segment: sometimes valid, sometimes hostile, always URL-safe on the wire. */
const hostileSegment = fc.oneof(
  { weight: 2, arbitrary: anyString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x')).slice(0, 3_000)) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%ZZ', '%00', '%2e%2e', '..', '%2F', '%E0%A4%A', 'a%2Fb', '', 'keep.alpha%00') },
);
const nameSeg = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('f1', 'f2', 'f-3') }, { weight: 2, arbitrary: fuzzName }, { weight: 2, arbitrary: hostileSegment });
const intSeg = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) },
  { weight: 2, arbitrary: fc.oneof(fc.integer({ min: 2 ** 31 - 2, max: 2 ** 53 }), fc.integer()).map(String) },
  { weight: 2, arbitrary: fc.constantFrom('0', '-1', '1.5', '1e3', '99999999999', '1e400', 'NaN', 'x', ' 1', '0x1') },
  { weight: 1, arbitrary: hostileSegment },
);

type Body = fc.Arbitrary<unknown> | undefined;
const ROUTES: [string, string, (fc.Arbitrary<string>)[], Body, number][] = [
  ['GET', '/prompts', [], undefined, 2],
  ['POST', '/prompts', [], versionBody, 4],
  ['GET', '/prompts/:', [nameSeg], undefined, 2],
  ['PATCH', '/prompts/:', [nameSeg], patchBody, 1],
  ['DELETE', '/prompts/:', [nameSeg], undefined, 1],
  ['GET', '/prompts/:/versions', [nameSeg], undefined, 1],
  ['POST', '/prompts/:/versions', [nameSeg], versionBody, 4],
  ['GET', '/prompts/:/versions/:', [nameSeg, intSeg], undefined, 2],
  ['PUT', '/prompts/:/active', [nameSeg], activateBody, 2],
  ['DELETE', '/prompts/:/active', [nameSeg], undefined, 1],
  ['POST', '/prompts/:/render', [nameSeg], renderBody, 3],
  ['GET', '/resources', [], undefined, 1],
  ['POST', '/resources', [], resourceBody, 2],
  ['GET', '/resources/:', [intSeg], undefined, 1],
  ['PUT', '/resources/:', [intSeg], resourceBody, 1],
  ['DELETE', '/resources/:', [intSeg], undefined, 1],
  ['GET', '/resource-templates', [], undefined, 1],
  ['POST', '/resource-templates', [], templateBody, 2],
  ['GET', '/resource-templates/:', [intSeg], undefined, 1],
  ['PUT', '/resource-templates/:', [intSeg], templateBody, 1],
  ['DELETE', '/resource-templates/:', [intSeg], undefined, 1],
  ['GET', '/events', [], undefined, 1],
];

const routeRequest = fc.oneof(
  ...ROUTES.map(([method, pattern, segs, body, weight]) => ({
    weight,
    arbitrary: fc.tuple(fc.tuple(...segs), fc.option(wireBody(body ?? anyJson), { nil: undefined, freq: body ? 20 : 4 })).map(([values, b]) => {
      let i = 0;
      return { method, path: pattern.replace(/:/g, () => values[i++]!), body: b };
    }),
  })),
);
const strayRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
  path: fc.array(fc.oneof(nameSeg, intSeg, fc.constantFrom('prompts', 'versions', 'active', 'resources')), { minLength: 1, maxLength: 5 }).map((s) => `/${s.join('/')}`),
  body: fc.option(wireBody(anyJson), { nil: undefined }),
});

export const queryString = fc
  .dictionary(fc.constantFrom('limit', 'cursor', 'q', 'archived', 'access_token', 'x'), fc.oneof(anyString, anyNumber.map(String), fc.constantFrom('1', '200', '201', 'all', 'true')), { maxKeys: 3 })
  .map((d) => {
    const qs = Object.entries(d).map(([k, v]) => `${k}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, 'x'))}`).join('&');
    return qs ? `?${qs}` : '';
  });

export interface RestCase {
  method: string;
  path: string;
  body?: string;
  headers: Record<string, string>;
}

export const restCase: fc.Arbitrary<RestCase> = fc
  .record({
    req: fc.oneof({ weight: 9, arbitrary: routeRequest }, { weight: 1, arbitrary: strayRequest }),
    query: fc.option(queryString, { nil: '', freq: 3 }),
    contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', '') }),
    ifMatch: fc.option(fc.oneof(anyString, fc.oneof(fc.nat(), fc.constantFrom(2 ** 31, 1e20, 2 ** 53 + 1)).map((n) => `"${n}"`)), { nil: undefined }),
    lastEventId: fc.option(anyString, { nil: undefined }),
  })
  .map(({ req, query, contentType, ifMatch, lastEventId }) => {
    const headers: Record<string, string> = {};
    if (contentType) headers['content-type'] = contentType;
    const safe = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
    if (ifMatch !== undefined) headers['if-match'] = safe(ifMatch);
    if (lastEventId !== undefined) headers['last-event-id'] = safe(lastEventId);
    const withBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
    return { method: req.method, path: req.path + query, headers, ...(withBody ? { body: req.body } : {}) };
  });

/** Unauthenticated requests anywhere: the UI's static files, the API, /mcp, health; with traversal attempts. */
export const publicRequest = fc
  .tuple(
    fc.constantFrom('/', '/admin/', '/admin/assets/', '/admin/v1/', '/admin/v1/docs/assets/', '/mcp/', '/healthz/', '/readyz'),
    fc.array(
      fc.oneof(
        fc.constantFrom('..', '%2e%2e', '..%2F..', '%2e%2e%2f%2e%2e', '..%5C..', '....//', '%252e%252e', '.%00.', '%ZZ', '%E0%A4%A', '%C0%AE%C0%AE', 'package.json', 'dist-x'),
        anyString.map((x) => encodeURIComponent(x.replace(/[\ud800-\udfff]/g, 'x')).slice(0, 200)),
      ),
      { maxLength: 5 },
    ),
    fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS'),
  )
  .map(([prefix, segs, method]) => ({ url: prefix + segs.join('/'), method }));
