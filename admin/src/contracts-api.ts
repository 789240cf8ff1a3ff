// Calls for issue #17 (includes, dependents, checks), through api.ts's typed client.
import { client, request } from './api';
import type { Ok } from './types';

const prompt = client.prompts[':name'];
const enc = encodeURIComponent;
const data = <T>(p: Promise<{ data: T }>) => p.then((r) => r.data);

export type Dependent = Ok<typeof prompt.dependents.$get>['items'][number];
export type IncludeInfo = Ok<typeof prompt.includes.$get>['items'][number];
export type CheckReport = Ok<(typeof prompt.versions)[':n']['check']['$post']>;
export type TestCaseResult = CheckReport['tests'][number];

export const contractsApi = {
  /** Served prompts that include this one. */
  dependents: (name: string) => data(request(prompt.dependents.$get, { param: { name: enc(name) } })),
  /** What a version (default: production, else latest) includes, and what each resolves to. */
  includes: (name: string, version?: number) =>
    data(request(prompt.includes.$get, { param: { name: enc(name) }, query: version ? { version: String(version) } : {} })),
  /** Lint + every test case of a version (includes resolved under `label`, default production). Writes nothing. */
  check: (name: string, version: number, label?: string, signal?: AbortSignal) =>
    data(request(prompt.versions[':n'].check.$post, { param: { name: enc(name), n: String(version) }, query: {}, json: label ? { label } : {} }, { signal })),
};
