// Line diff by longest common subsequence, and side-by-side pairing of its hunks.
export type Op = { kind: 'same' | 'del' | 'add'; text: string };

export function diffLines(a: string[], b: string[]): Op[] {
  // Trim the common prefix and suffix so the LCS table stays small.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ma = a.slice(start, endA);
  const mb = b.slice(start, endB);
  const n = ma.length;
  const m = mb.length;
  const table: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] = ma[i] === mb[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const ops: Op[] = a.slice(0, start).map((text) => ({ kind: 'same', text }));
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (ma[i] === mb[j]) {
      ops.push({ kind: 'same', text: ma[i]! });
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) ops.push({ kind: 'del', text: ma[i++]! });
    else ops.push({ kind: 'add', text: mb[j++]! });
  }
  while (i < n) ops.push({ kind: 'del', text: ma[i++]! });
  while (j < m) ops.push({ kind: 'add', text: mb[j++]! });
  for (const text of a.slice(endA)) ops.push({ kind: 'same', text });
  return ops;
}

export interface Row {
  left: { no: number; text: string } | null;
  right: { no: number; text: string } | null;
  kind: 'same' | 'changed' | 'del' | 'add';
}

/** Pairs runs of deletions with the insertions that follow them, for a side-by-side view. */
export function sideBySide(ops: Op[]): Row[] {
  const rows: Row[] = [];
  let ln = 0;
  let rn = 0;
  let k = 0;
  while (k < ops.length) {
    const op = ops[k]!;
    if (op.kind === 'same') {
      rows.push({ left: { no: ++ln, text: op.text }, right: { no: ++rn, text: op.text }, kind: 'same' });
      k++;
      continue;
    }
    const dels: string[] = [];
    const adds: string[] = [];
    while (k < ops.length && ops[k]!.kind !== 'same') {
      const o = ops[k++]!;
      (o.kind === 'del' ? dels : adds).push(o.text);
    }
    for (let x = 0; x < Math.max(dels.length, adds.length); x++) {
      const l = x < dels.length ? { no: ++ln, text: dels[x]! } : null;
      const r = x < adds.length ? { no: ++rn, text: adds[x]! } : null;
      rows.push({ left: l, right: r, kind: l && r ? 'changed' : l ? 'del' : 'add' });
    }
  }
  return rows;
}

export interface Seg { text: string; changed: boolean }

const TOKENS = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

/** Word-level diff of one changed line pair: the words each side does not share are marked. */
export function diffWords(a: string, b: string): { left: Seg[]; right: Seg[] } {
  const ta = a.match(TOKENS) ?? [];
  const tb = b.match(TOKENS) ?? [];
  // Very long lines: mark them whole rather than build a large table.
  if (ta.length * tb.length > 250_000) return { left: [{ text: a, changed: true }], right: [{ text: b, changed: true }] };
  const ops = diffLines(ta, tb);
  const left: Seg[] = [];
  const right: Seg[] = [];
  const push = (out: Seg[], text: string, changed: boolean) => {
    const last = out.at(-1);
    if (last && last.changed === changed) last.text += text;
    else out.push({ text, changed });
  };
  for (const o of ops) {
    if (o.kind !== 'add') push(left, o.text, o.kind === 'del');
    if (o.kind !== 'del') push(right, o.text, o.kind === 'add');
  }
  return { left, right };
}

export interface UnifiedLine { kind: 'same' | 'del' | 'add'; no: number; text: string; segs?: Seg[] }

/** Side-by-side rows as one column: removed lines of a hunk, then its added lines. */
export function unified(rows: Row[]): UnifiedLine[] {
  const out: UnifiedLine[] = [];
  for (let k = 0; k < rows.length; ) {
    const r = rows[k]!;
    if (r.kind === 'same') {
      out.push({ kind: 'same', no: r.right!.no, text: r.right!.text });
      k++;
      continue;
    }
    const hunk: Row[] = [];
    while (k < rows.length && rows[k]!.kind !== 'same') hunk.push(rows[k++]!);
    for (const h of hunk) if (h.left) out.push({ kind: 'del', no: h.left.no, text: h.left.text, segs: h.right ? diffWords(h.left.text, h.right.text).left : undefined });
    for (const h of hunk) if (h.right) out.push({ kind: 'add', no: h.right.no, text: h.right.text, segs: h.left ? diffWords(h.left.text, h.right.text).right : undefined });
  }
  return out;
}
