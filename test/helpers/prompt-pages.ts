// A page of GET /admin/v1/prompts as the search tests read it, through makeClient's
// strictly checked call.
import { expect } from 'vitest';
import type { makeClient } from './http.js';

export type PromptPage = { items: { name: string }[]; nextCursor: string | null; total: number; totalIsLowerBound: boolean; searchIncomplete: boolean; searchedThrough: string | null };

/** GET /admin/v1/prompts<query>, which must answer 200. */
export const promptPage = async (call: ReturnType<typeof makeClient>['call'], query: string): Promise<PromptPage> => {
  const res = await call('GET', `/prompts${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json() as Promise<PromptPage>;
};
