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
