/** @param {string} sqliteSchema */
export function toPostgresSchema(sqliteSchema) {
  return (
    '// GENERATED from prisma/schema.prisma by scripts/generate.mjs; do not edit.\n' +
    sqliteSchema
      .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
      .replace(/output\s*=\s*"\.\.\/src\/generated\/sqlite"/, 'output       = "../../src/generated/postgres"')
      // PostgreSQL-only lines, written as `// postgresql: <line>` in the one definition
      .replace(/\/\/ postgresql: (.*)/g, '$1')
  );
}
