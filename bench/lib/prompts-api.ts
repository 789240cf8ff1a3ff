// Admin REST writes used by the latency and write benchmarks.
import { adminOk } from './proc.js';

export const versionBody = (i: number) => ({
  description: `benchmark prompt, revision ${i}`,
  note: `revision ${i}`,
  arguments: [{ name: 'who', description: 'who to greet', required: true }],
  messages: [{ role: 'user', content: { type: 'text', text: `Hello {{who}}, this is revision ${i}.` } }],
});

/** Creates a served prompt with versions 1 and 2 (version 1 active). */
export async function createToggle(base: string, name: string): Promise<void> {
  await adminOk(base, 'POST', '/prompts', { name, ...versionBody(1), activate: true });
  await adminOk(base, 'POST', `/prompts/${name}/versions`, versionBody(2));
}
