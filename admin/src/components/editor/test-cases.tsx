// Test cases of this version: name, sample arguments, expectations on the rendered text.
// They are saved with the version (immutable) and run by the server's check after saving.
import { useId } from 'react';
import { useFocusLater } from '../../lib/focus';
import { describe, FieldError, type Messages } from '../bits';
import type { ArgRow } from './form-model';
import { emptyExpect, emptyTest, EXPECT_KINDS, type ExpectKind, type ExpectRow, type TestRow } from './test-model';

interface Props {
  tests: TestRow[];
  args: ArgRow[];
  onChange: (t: TestRow[]) => void;
  errors: Messages;
  warnings: Messages;
}

export function TestCases({ tests, args, onChange, errors, warnings }: Props) {
  const id = useId();
  const focusLater = useFocusLater();
  const byId = (s: string) => () => document.getElementById(s);
  const set = (i: number, patch: Partial<TestRow>) => onChange(tests.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  const named = args.filter((a) => a.name.trim() !== '');
  const add = () => {
    onChange([...tests, emptyTest(`case ${tests.length + 1}`)]);
    focusLater(byId(`${id}-${tests.length}-name`));
  };
  const remove = (i: number) => {
    onChange(tests.filter((_, j) => j !== i));
    focusLater(byId(`${id}-${i}-remove`), byId(`${id}-${i - 1}-remove`), byId(`${id}-add`));
  };
  const setExpect = (i: number, expect: ExpectRow[]) => set(i, { expect });

  return (
    <div className="tests" data-testid="test-cases">
      <p className="hint">
        Each case renders this version with its sample arguments and checks the text. They run after saving (results next to the preview), and before <code>production</code> moves to this version.
      </p>
      <FieldError path="tests" errors={errors} prefix={false} />
      {tests.length === 0 && <p className="muted" data-testid="test-none">No test cases.</p>}
      <ol className="test-list">
        {tests.map((t, i) => {
          const p = `tests[${i}]`;
          const f = (k: string) => `${id}-${i}-${k}`;
          return (
            <li key={t.key} className="test-row" data-testid="test-row">
              <div className="arg-head">
                <span className="arg-index">Test case {i + 1}</span>
                <button type="button" className="btn btn-small btn-ghost" id={f('remove')} data-testid={`test-remove-${i}`} aria-label={`Remove test case ${i + 1}${t.name ? ` (${t.name})` : ''}`} onClick={() => remove(i)}>
                  Remove
                </button>
              </div>
              <div className="field">
                <label htmlFor={f('name')}>Name</label>
                <input id={f('name')} data-testid={`test-name-${i}`} value={t.name} onChange={(e) => set(i, { name: e.target.value })} {...describe(`${p}.name`, errors, warnings)} />
                <FieldError path={`${p}.name`} errors={errors} warnings={warnings} />
              </div>
              {named.length > 0 && (
                <fieldset className="test-args">
                  <legend>Arguments of test case {i + 1}</legend>
                  <div className="arg-grid">
                    {named.map((a) => {
                      const n = a.name.trim();
                      return (
                        <div className="field" key={a.key}>
                          <label htmlFor={f(`arg-${n}`)}>
                            <span className="mono">{n}</span>
                            {a.type !== 'string' && <span className="muted small"> ({a.type})</span>}
                          </label>
                          <input id={f(`arg-${n}`)} data-testid={`test-arg-${i}-${n}`} value={t.args[n] ?? ''} placeholder={a.default ? `default ${a.default}` : undefined} onChange={(e) => set(i, { args: { ...t.args, [n]: e.target.value } })} {...describe(`${p}.arguments.${n}`, errors)} />
                          <FieldError path={`${p}.arguments.${n}`} errors={errors} />
                        </div>
                      );
                    })}
                  </div>
                </fieldset>
              )}
              <fieldset className="test-expect">
                <legend>Expectations of test case {i + 1}: the rendered text…</legend>
                <FieldError path={`${p}.expect`} errors={errors} warnings={warnings} />
                <ol className="expect-list">
                  {t.expect.map((e, j) => {
                    const ep = `${p}.expect[${j}].${e.kind}`;
                    const g = (k: string) => f(`e${j}-${k}`);
                    return (
                      <li key={e.key} className="expect-row" data-testid="expect-row">
                        <div className="field inline">
                          <label htmlFor={g('kind')} className="sr-only">Check {j + 1} of test case {i + 1}</label>
                          <select id={g('kind')} data-testid={`expect-kind-${i}-${j}`} value={e.kind} onChange={(ev) => setExpect(i, t.expect.map((x, k) => (k === j ? { ...x, kind: ev.target.value as ExpectKind } : x)))}>
                            {EXPECT_KINDS.map((k) => (
                              <option key={k.value} value={k.value}>{k.label}</option>
                            ))}
                          </select>
                        </div>
                        <div className="field inline grow">
                          <label htmlFor={g('value')} className="sr-only">{e.kind === 'maxChars' ? 'Maximum characters' : e.kind === 'matches' ? 'Regular expression' : 'Text'} for check {j + 1} of test case {i + 1}</label>
                          <input
                            id={g('value')}
                            className={e.kind === 'matches' ? 'mono' : undefined}
                            data-testid={`expect-value-${i}-${j}`}
                            inputMode={e.kind === 'maxChars' ? 'numeric' : undefined}
                            value={e.value}
                            onChange={(ev) => setExpect(i, t.expect.map((x, k) => (k === j ? { ...x, value: ev.target.value } : x)))}
                            {...describe(ep, errors, warnings)}
                          />
                        </div>
                        <button
                          type="button"
                          className="btn btn-small btn-ghost"
                          id={g('remove')}
                          data-testid={`expect-remove-${i}-${j}`}
                          aria-label={`Remove check ${j + 1} of test case ${i + 1}`}
                          onClick={() => {
                            setExpect(i, t.expect.filter((_, k) => k !== j));
                            focusLater(byId(g('remove')), byId(f(`e${j - 1}-remove`)), byId(f('add-expect')));
                          }}
                        >
                          Remove
                        </button>
                        <FieldError path={ep} errors={errors} warnings={warnings} />
                        <FieldError path={`${p}.expect[${j}]`} errors={errors} />
                      </li>
                    );
                  })}
                </ol>
                <button
                  type="button"
                  className="btn btn-small"
                  id={f('add-expect')}
                  data-testid={`expect-add-${i}`}
                  onClick={() => {
                    setExpect(i, [...t.expect, emptyExpect()]);
                    focusLater(byId(f(`e${t.expect.length}-value`)));
                  }}
                >
                  Add check
                </button>
              </fieldset>
              <FieldError path={p} errors={errors} />
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-small" id={`${id}-add`} data-testid="test-add" onClick={add}>
        Add test case
      </button>
    </div>
  );
}
