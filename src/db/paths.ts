// The project root lives in src/paths.ts; re-exported for the database layer, scripts and tests.
export { projectRoot } from '../paths.js';
