import { defineConfig } from 'prisma/config';

// Used by the Prisma CLI (generate). Migrations are applied by our own wasm-engine
// runner (src/db/migrate.ts), so no datasource URL is needed here.
export default defineConfig({
  schema: process.env.PRISMA_SCHEMA ?? 'prisma/schema.prisma',
});
