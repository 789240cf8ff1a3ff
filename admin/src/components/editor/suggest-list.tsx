// The listbox under an autocompleting input: options are never focused (focus stays in the
// input, which points at the active one with aria-activedescendant); a click picks.
interface Props {
  id: string;
  options: string[];
  active: number;
  onPick: (value: string) => void;
  label: string;
  testId: string;
}

export const optionId = (listId: string, i: number) => `${listId}-o${i}`;

export function SuggestList({ id, options, active, onPick, label, testId }: Props) {
  if (options.length === 0) return null;
  return (
    <ul className="suggest" role="listbox" id={id} aria-label={label} data-testid={testId}>
      {options.map((o, i) => (
        <li
          key={o}
          id={optionId(id, i)}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'suggest-active' : undefined}
          data-value={o}
          // mousedown, not click: the input keeps focus.
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(o);
          }}
        >
          {o}
        </li>
      ))}
    </ul>
  );
}

/** Arrow keys move, Enter picks, Escape closes (Tab leaves as usual). Returns true when it handled the key. */
export function suggestKey(e: React.KeyboardEvent, n: number, active: number, setActive: (i: number) => void, pick: () => void, close: () => void): boolean {
  if (n === 0) return false;
  if (e.key === 'ArrowDown') setActive((active + 1) % n);
  else if (e.key === 'ArrowUp') setActive((active - 1 + n) % n);
  else if (e.key === 'Enter') pick();
  else if (e.key === 'Escape') close();
  else return false;
  e.preventDefault();
  e.stopPropagation();
  return true;
}
