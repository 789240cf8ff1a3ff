// Gets every served prompt through any SDK client version, with a value for each
// required argument (a valid choice where the argument has choices).
import { expect } from 'vitest';
import type { Core } from '../../src/core/index.js';

export interface AnyClient {
  listPrompts(params?: { cursor?: string }): Promise<{ prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[]; nextCursor?: string }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: { role: string; content: { type: string } }[] }>;
}

/** Argument name → its choices, from the served catalog. */
export async function argumentChoices(core: Core): Promise<Map<string, string[]>> {
  await core.catalog.ready();
  const choices = new Map<string, string[]>();
  for (const p of core.catalog.list({ limit: 1000 }).prompts) for (const a of p.arguments) if (a.choices) choices.set(a.name, a.choices);
  return choices;
}

function sampleArguments(p: { arguments?: { name: string; required?: boolean }[] }, choices: Map<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of p.arguments ?? []) {
    if (!a.required) continue;
    out[a.name] = choices.get(a.name)?.[0] ?? (/uri/i.test(a.name) ? 'file:///project/README.md' : 'sample value');
  }
  return out;
}

export async function getEveryPrompt(client: AnyClient, choices: Map<string, string[]>) {
  const names: string[] = [];
  const types = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listPrompts(cursor ? { cursor } : undefined);
    for (const p of page.prompts) {
      names.push(p.name);
      const got = await client.getPrompt({ name: p.name, arguments: sampleArguments(p, choices) });
      expect(got.messages.length, p.name).toBeGreaterThan(0);
      for (const m of got.messages) types.add(m.content.type);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return { names, types };
}
