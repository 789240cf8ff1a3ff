// Instance-wide settings (the cursor secret, the write-lock row): created once by
// whichever instance gets there first.
import type { Dialect } from '../dialect.js';
import type { Models } from '../prisma.js';

/**
 * Reads `key`, storing `make()` first when absent. The insert does nothing on a
 * conflict and the value is read back, so instances starting together on a fresh
 * database agree on one value instead of failing on the primary key (issue 24.7).
 */
export async function readOrCreateSetting(models: Models, dialect: Dialect, key: string, make: () => string): Promise<string> {
  const found = await models.setting.findUnique({ where: { key } });
  if (found) return found.value;
  const p = dialect.sql.param;
  await models.$executeRawUnsafe(`INSERT INTO "Setting" ("key", "value") VALUES (${p(1)}, ${p(2)}) ON CONFLICT ("key") DO NOTHING`, key, make());
  return (await models.setting.findUniqueOrThrow({ where: { key } })).value;
}
