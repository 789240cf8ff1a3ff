// Real pages over a keyset-paginated list: Previous goes back through the cursors seen,
// Next follows the server's cursor; "page N of M" comes from the total. The buttons stay
// enabled while a page loads, so keyboard focus stays on them.
// A total that is a lower bound (the count stopped) reads "1,000+" and "page 3 of 20+".
export function Pager({ page, pages, total, totalIsLowerBound = false, noun, onPrev, onNext, hasNext, busy }: {
  page: number; pages: number; total: number; totalIsLowerBound?: boolean; noun: [string, string]; onPrev: () => void; onNext: () => void; hasNext: boolean; busy: boolean;
}) {
  const more = totalIsLowerBound ? '+' : '';
  return (
    <nav className="pager" aria-label="Pages" data-testid="pager" aria-busy={busy}>
      <button type="button" className="btn btn-small" data-testid="page-prev" onClick={onPrev} disabled={page <= 1}>
        Previous
      </button>
      <span data-testid="page-status">
        Page {page} of {Math.max(pages, totalIsLowerBound ? page : 1)}{more} · <span data-testid="prompt-total">{total.toLocaleString()}{more}</span> {total === 1 && !more ? noun[0] : noun[1]}
      </span>
      <button type="button" className="btn btn-small" data-testid="page-next" onClick={onNext} disabled={!hasNext}>
        Next
      </button>
    </nav>
  );
}
