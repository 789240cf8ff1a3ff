import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Works from src/db (tsx, vitest) and dist/db (compiled) alike.
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
