// Test cases of a version (immutable with it): sample arguments and expectations on the rendered text.
import type { VersionBody } from '../../types';
import { newKey } from './keys';

export type ExpectKind = 'contains' | 'notContains' | 'matches' | 'maxChars';
export const EXPECT_KINDS: { value: ExpectKind; label: string }[] = [
  { value: 'contains', label: 'contains' },
  { value: 'notContains', label: 'does not contain' },
  { value: 'matches', label: 'matches (regular expression)' },
  { value: 'maxChars', label: 'is at most N characters' },
];

export interface ExpectRow { key: string; kind: ExpectKind; value: string }
export interface TestRow { key: string; name: string; args: Record<string, string>; expect: ExpectRow[] }

type TestCase = NonNullable<VersionBody['tests']>[number];
type Expectation = TestCase['expect'][number];

export const emptyExpect = (kind: ExpectKind = 'contains'): ExpectRow => ({ key: newKey(), kind, value: '' });
export const emptyTest = (name = ''): TestRow => ({ key: newKey(), name, args: {}, expect: [emptyExpect()] });

export function testRow(t: TestCase): TestRow {
  return {
    key: newKey(),
    name: t.name,
    args: { ...(t.arguments ?? {}) },
    expect: t.expect.map((e) => {
      const [kind, value] = Object.entries(e)[0] as [ExpectKind, string | number];
      return { key: newKey(), kind, value: String(value) };
    }),
  };
}

function expectation(e: ExpectRow): Expectation {
  if (e.kind === 'maxChars') {
    const n = Number(e.value);
    // Not a number: sent as-is, so the server's 422 names the field.
    return { maxChars: Number.isInteger(n) && e.value.trim() !== '' ? n : (e.value as unknown as number) };
  }
  return { [e.kind]: e.value } as Expectation;
}

/** Empty sample values are not sent: the case then exercises the argument's default or its absence. */
export function testBody(t: TestRow, argNames: string[]): TestCase {
  const args: Record<string, string> = {};
  for (const n of argNames) if (t.args[n]) args[n] = t.args[n]!;
  return { name: t.name.trim(), arguments: args, expect: t.expect.map(expectation) };
}

export function checkTests(tests: TestRow[], w: Record<string, string>): void {
  const names = new Set<string>();
  tests.forEach((t, i) => {
    const n = t.name.trim();
    if (!n) w[`tests[${i}].name`] = 'Give the test case a name.';
    else if (names.has(n)) w[`tests[${i}].name`] = `"${n}" is used twice.`;
    names.add(n);
    if (t.expect.length === 0) w[`tests[${i}].expect`] = 'Add at least one expectation.';
    t.expect.forEach((e, j) => {
      const p = `tests[${i}].expect[${j}].${e.kind}`;
      if (e.kind === 'maxChars') {
        if (!/^\d+$/.test(e.value.trim()) || Number(e.value) < 1) w[p] = 'A whole number of characters, 1 or more.';
      } else if (e.value === '') w[p] = 'Type the text to look for.';
      else if (e.kind === 'matches') {
        try {
          new RegExp(e.value);
        } catch (err) {
          w[p] = `Not a regular expression: ${(err as Error).message}`;
        }
      }
    });
  });
}
