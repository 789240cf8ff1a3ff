#!/bin/sh
# Placeholder named by PRISMA_SCHEMA_ENGINE_BINARY so the Prisma CLI does not try to
# download the native engine. promptd migrates with the wasm engine instead.
echo "promptd: the native Prisma schema engine is not installed; use 'promptd migrate' or 'npm run db:diff'" >&2
exit 1
