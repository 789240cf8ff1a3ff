import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Works from src/ (tsx, vitest) and dist/ (compiled) alike.
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
