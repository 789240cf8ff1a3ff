// The admin prompt-list cases of the 100k search benchmarks (bench/prompt-search.ts,
// bench/list-cpu-ab.mjs, bench/list-interleave-ab.mjs), on the fixture of
// bench/lib/fixture.ts: [name, options of core.prompts.list]. `next: true` stands for the
// first page's nextCursor: the case measures the page after it.
export const LIST_CASES = [
  ['no filter, sort=name', {}],
  ['no filter, sort=updated', { sort: 'updated' }],
  ['status=pending', { status: 'pending' }],
  ['status=pending, sort=updated', { status: 'pending', sort: 'updated' }],
  ['status=inactive', { status: 'inactive' }],
  ['label=production', { label: 'production' }],
  ['label=production, sort=updated', { label: 'production', sort: 'updated' }],
  ['q=rare (description, 11 hits)', { q: 'checklist number 4242' }],
  ['q=rare, sort=updated', { q: 'checklist number 4242', sort: 'updated' }],
  ['q=common (template text, every prompt)', { q: 'severity' }],
  ['q=absent (no hits)', { q: 'zqxj' }],
  ['q=absent, 2 chars', { q: 'zq' }],
  ['q=absent, 1 char', { q: 'Z' }],
  ['q=common, 2 chars', { q: 'Ev' }],
  ['q=common, 1 char', { q: 'e' }],
  ['q=some (4%), 2 chars', { q: '42' }],
  ['q=rare, 2 chars, sort=updated', { q: '#7', sort: 'updated' }],
  ['q=absent, 2 chars, sort=updated', { q: 'zq', sort: 'updated' }],
  ['q=absent, 1 char, label=production', { q: 'Z', label: 'production' }],
  ['q=absent, 2 chars, next page (cursor)', { q: 'zq', next: true }],
];

/**
 * The cases named in a list separated by `;` (all when none). Case names hold commas, so
 * a comma is no separator (it was: then no name matched, and the scripts ran no case).
 */
export const pickCases = (names) => (names ? LIST_CASES.filter(([n]) => names.split(';').map((s) => s.trim()).includes(n)) : LIST_CASES);

/** The list options of a case for `core`: a next-page case gets the first page's cursor. */
export async function caseOptions(core, given) {
  const { next, ...opts } = given;
  if (next) opts.cursor = (await core.prompts.list({ ...opts, limit: 50 })).nextCursor ?? undefined;
  return opts;
}
