// POST /admin/v1/prompts/{name}/versions/{n}/check and its MCP/CLI callers: the
// checks of one stored version, includes resolved under a label.
import { notFound } from '../errors.js';
import type { Repositories } from '../ports.js';
import { LabelNameSchema, PRODUCTION } from '../schemas.js';
import { invalid } from '../errors.js';
import type { KnownLabels } from '../known-labels.js';
import type { CheckRenderFactory } from './move-gate.js';
import type { RegexRunner } from './regex-runner.js';
import { runChecks, type CheckReport } from './run-checks.js';

export function createCheckService({ read, render, regex, knownLabels }: { read: Repositories; render: CheckRenderFactory; regex: () => RegexRunner; knownLabels?: Pick<KnownLabels, 'require'> }) {
  return {
    /**
     * Lint and every test case of version `number` of `name`; `label`: where includes resolve
     * (default production); `signal`: the client's, so a check nobody waits for stops.
     */
    async check(name: string, number: number, label: string = PRODUCTION, opts: { signal?: AbortSignal } = {}): Promise<CheckReport> {
      if (!LabelNameSchema.safeParse(label).success) throw invalid(`invalid label "${label}"`, [{ path: 'label', message: 'not a label name' }]);
      // Includes resolved under a label nobody carries would all fail, or "pass" with none: say so instead.
      await knownLabels?.require(label);
      const v = await read.prompts.version(name, number);
      if (!v) {
        if (!(await read.prompts.head(name))) throw notFound(`prompt "${name}"`);
        throw notFound(`version ${number} of prompt "${name}"`);
      }
      return runChecks(name, v, { label, render: render(read), regex: regex(), ...opts });
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
