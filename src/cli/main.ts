// `promptd`: one entry for every face that runs from a shell.
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { fail, UsageError } from './output.js';
import { ConfigError } from '../config-error.js';

const program = buildProgram();

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? 0 : 2;
  } else if (e instanceof UsageError || e instanceof ConfigError) {
    process.stderr.write(`promptd: ${e.message}\n`);
    process.exitCode = 2;
  } else {
    fail(e, Boolean(program.opts().verbose));
  }
}
