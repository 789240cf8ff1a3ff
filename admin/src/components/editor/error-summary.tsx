// The list of fields the server refused, in words ("Message 1 template"), each a button to the field.
import type { Messages } from '../bits';

const PARTS: Record<string, string> = {
  name: 'name', title: 'title', description: 'description', required: 'required', choices: 'choices', maxLength: 'max length',
  src: 'URL', mimeType: 'MIME type', sizes: 'sizes', role: 'role', text: 'template', uri: 'resource URI', resourceUri: 'resource',
  data: 'inline data', priority: 'priority', audience: 'audience', content: 'content',
  type: 'type', default: 'default', prompt: 'included prompt', label: 'label', version: 'version', expect: 'checks',
  contains: 'check', notContains: 'check', matches: 'check', maxChars: 'check',
};
const TOP: Record<string, string> = { name: 'Name', title: 'Title', description: 'Description', note: 'Change note', arguments: 'Arguments', messages: 'Messages', icons: 'Icons', tests: 'Test cases' };
const ROWS: Record<string, string> = { arguments: 'Argument', messages: 'Message', icons: 'Icon', tests: 'Test case' };

/** `messages[0].content.text` → "Message 1 template"; unknown shapes fall back to the path itself. */
export function fieldLabel(path: string): string {
  if (TOP[path]) return TOP[path]!;
  const m = /^(arguments|messages|icons|tests)\[(\d+)\](?:\.(.*))?$/.exec(path);
  if (!m) return path;
  const row = `${ROWS[m[1]!]} ${Number(m[2]) + 1}`;
  if (!m[3]) return row;
  const leaf = m[3].replace(/\[\d+\]$/, '').split('.').at(-1)!;
  return PARTS[leaf] ? `${row} ${PARTS[leaf]}` : `${row} (${m[3]})`;
}

function focusField(path: string) {
  const el = document.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`) ?? document.querySelector<HTMLElement>(`[data-path^="${CSS.escape(path)}"]`);
  el?.focus();
}

export function ErrorSummary({ errors }: { errors: Messages }) {
  const entries = Object.entries(errors);
  if (!entries.length) return null;
  return (
    <ul className="error-summary" data-testid="error-summary">
      {entries.map(([p, msg]) => (
        <li key={p} data-path-summary={p}>
          <button type="button" className="btn-link" onClick={() => focusField(p)}>
            {fieldLabel(p)}
          </button>
          : {msg}
        </li>
      ))}
    </ul>
  );
}
