// In the 412 banner: what the other author saved ("theirs") against this editor's form ("mine").
import { useMemo } from 'react';
import type { Version } from '../../types';
import { DiffTable, type DiffDoc } from '../diff-table';
import { toBody, type Form } from './form-model';

export function ConflictDiff({ theirs, mine }: { theirs: Version; mine: Form }) {
  const doc = useMemo<DiffDoc>(() => {
    const b = toBody(mine);
    return { title: b.title ?? null, description: b.description ?? null, icons: b.icons ?? null, arguments: (b.arguments ?? []).map((a) => ({ ...a, required: a.required ?? false })), messages: b.messages };
  }, [mine]);
  return (
    <details className="conflict-diff" data-testid="conflict-diff" open>
      <summary>Theirs (v{theirs.version}) vs mine</summary>
      <DiffTable a={theirs} b={doc} leftLabel={`Theirs: v${theirs.version}`} rightLabel="Mine (not saved)" caption={`Differences between the saved v${theirs.version} (left) and your edits (right)`} testId="conflict-diff-view" />
    </details>
  );
}
