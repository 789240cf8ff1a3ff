// Editor form state, its conversion to the API body, and live client-side checks.
import { isUriTemplate, scanTemplate, uriTemplateVars } from '../../lib/template-vars';
import type { Annotations, ContentType, Icon, Message, Role, Version, VersionBody } from '../../types';
import { argTypeOf, defaultText, parseDefault, type ArgType } from './arg-types';
import { checkInclude, emptyInclude, includeBody, includeRow, includeVars, type IncludeRow } from './include-model';
import { newKey } from './keys';
import { checkTests, testBody, testRow, type TestRow } from './test-model';

export { newKey };
/** Message types the editor offers: the API's content types plus an include of another prompt. */
export type MsgType = ContentType | 'include';

export interface ArgRow {
  key: string;
  name: string;
  type: ArgType;
  default: string; // as typed; '' = none
  title: string;
  description: string;
  required: boolean;
  choices: string; // comma separated
  maxLength: string;
}
export interface MsgRow {
  key: string;
  role: Role;
  type: MsgType;
  text: string;
  include: IncludeRow;
  uri: string; // resource / resource_link uri, or image/audio resourceUri
  inline?: { data: string; mimeType: string };
  audience: Role[];
  priority: string; // '' = none, else 0..1
}
export interface IconRow {
  key: string;
  src: string;
  mimeType: string;
  sizes: string; // space or comma separated, e.g. "48x48 96x96" or "any"
}
export interface Form {
  name: string;
  title: string;
  description: string;
  note: string;
  icons: IconRow[];
  args: ArgRow[];
  messages: MsgRow[];
  tests: TestRow[];
  activate: boolean;
}

export const emptyArg = (name = ''): ArgRow => ({ key: newKey(), name, type: 'string', default: '', title: '', description: '', required: false, choices: '', maxLength: '' });
export const emptyMsg = (role: Role = 'user'): MsgRow => ({ key: newKey(), role, type: 'text', text: '', include: emptyInclude(), uri: '', audience: [], priority: '' });
export const emptyIcon = (): IconRow => ({ key: newKey(), src: '', mimeType: '', sizes: '' });
const iconRow = (i: Icon): IconRow => ({ key: newKey(), src: i.src, mimeType: i.mimeType ?? '', sizes: (i.sizes ?? []).join(' ') });

export function emptyForm(): Form {
  return { name: '', title: '', description: '', note: '', icons: [], args: [], messages: [emptyMsg()], tests: [], activate: false };
}

export function formFromVersion(v: Version): Form {
  return {
    name: '',
    title: v.title ?? '',
    description: v.description ?? '',
    note: '',
    icons: (v.icons ?? []).map(iconRow),
    activate: false,
    args: v.arguments.map((a) => ({
      key: newKey(),
      name: a.name,
      type: argTypeOf(a),
      default: defaultText(a.default),
      title: a.title ?? '',
      description: a.description ?? '',
      required: a.required,
      choices: (a.choices ?? []).join(', '),
      maxLength: a.maxLength == null ? '' : String(a.maxLength),
    })),
    tests: (v.tests ?? []).map(testRow),
    messages: v.messages.map((m) => {
      const c = m.content;
      if (c.type === 'include') return { ...emptyMsg(m.role), type: 'include', include: includeRow(c) };
      const a = c.annotations;
      const row: MsgRow = { ...emptyMsg(m.role), type: c.type, audience: a?.audience ?? [], priority: a?.priority == null ? '' : String(a.priority) };
      if (c.type === 'text') row.text = c.text;
      else if (c.type === 'image' || c.type === 'audio') {
        if ('resourceUri' in c) row.uri = c.resourceUri;
        else if (c.data) row.inline = { data: c.data, mimeType: c.mimeType ?? 'application/octet-stream' };
      } else if ('uri' in c) row.uri = c.uri;
      return row;
    }),
  };
}

const opt = (s: string) => (s.trim() === '' ? undefined : s.trim());

const AUDIENCES: Role[] = ['user', 'assistant'];

/** Undefined when nothing is set; a priority that is not a number is sent as-is so the server names the field. */
export function annotationsOf(m: Pick<MsgRow, 'audience' | 'priority'>): Annotations | undefined {
  const audience = AUDIENCES.filter((r) => m.audience.includes(r));
  const p = m.priority.trim();
  if (!audience.length && p === '') return undefined;
  return { ...(audience.length ? { audience } : {}), ...(p !== '' ? { priority: Number.isNaN(Number(p)) ? (p as unknown as number) : Number(p) } : {}) };
}

function messageBody(m: MsgRow): Message {
  // An include carries no annotations: it is replaced by the included prompt's messages.
  if (m.type === 'include') return { role: m.role, content: includeBody(m.include) };
  const annotations = annotationsOf(m);
  switch (m.type) {
    case 'text':
      return { role: m.role, content: { type: 'text', text: m.text, annotations } };
    case 'image':
    case 'audio':
      return m.inline && !m.uri
        ? { role: m.role, content: { type: m.type, data: m.inline.data, mimeType: m.inline.mimeType, annotations } }
        : { role: m.role, content: { type: m.type, resourceUri: m.uri.trim(), annotations } };
    default:
      return { role: m.role, content: { type: m.type, uri: m.uri.trim(), annotations } };
  }
}

/** Rows are sent in order and never filtered, so server error paths (arguments[1].name) match the rows on screen. */
export function toBody(f: Form): VersionBody {
  const argNames = f.args.map((a) => a.name.trim()).filter(Boolean);
  return {
    title: opt(f.title),
    description: opt(f.description),
    note: opt(f.note),
    ...(f.icons.length
      ? {
          icons: f.icons.map((i) => {
            const sizes = i.sizes.split(/[\s,]+/).filter(Boolean);
            return { src: i.src.trim(), ...(opt(i.mimeType) ? { mimeType: i.mimeType.trim() } : {}), ...(sizes.length ? { sizes } : {}) };
          }),
        }
      : {}),
    arguments: f.args.map((a) => {
      const choices = a.choices.split(',').map((c) => c.trim()).filter(Boolean);
      return {
        name: a.name.trim(),
        ...(a.type !== 'string' ? { type: a.type } : {}),
        ...defaultBody(a),
        title: opt(a.title),
        description: opt(a.description),
        required: a.required,
        ...(choices.length ? { choices } : {}),
        ...(a.maxLength.trim() !== '' ? { maxLength: Number(a.maxLength) } : {}),
      };
    }),
    messages: f.messages.map(messageBody),
    ...(f.tests.length ? { tests: f.tests.map((t) => testBody(t, argNames)) } : {}),
    activate: f.activate,
  };
}

/** A default that does not parse for its type is sent as typed, so the server's 422 names the field. */
function defaultBody(a: ArgRow): { default?: string | number | boolean } {
  if (a.default.trim() === '') return {};
  const d = parseDefault(a.type, a.default);
  return { default: d.problem ? a.default : d.value };
}

export const NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;

/** Problems visible before saving, keyed like server error paths. The server stays the authority. */
export function checkForm(f: Form, isNew: boolean): Record<string, string> {
  const w: Record<string, string> = {};
  if (isNew && !NAME_RE.test(f.name)) w.name = f.name ? 'Use 1–128 letters, digits, _ - or .' : 'A name is required.';
  const declared = new Set<string>();
  f.args.forEach((a, i) => {
    const n = a.name.trim();
    if (!n) w[`arguments[${i}].name`] = 'Give the argument a name.';
    else if (declared.has(n)) w[`arguments[${i}].name`] = `"${n}" is declared twice.`;
    declared.add(n);
    const d = parseDefault(a.type, a.default);
    if (d.problem) w[`arguments[${i}].default`] = d.problem;
    else if (d.value !== undefined && a.type === 'string' && a.choices.trim() && !a.choices.split(',').map((c) => c.trim()).includes(String(d.value))) {
      w[`arguments[${i}].default`] = 'The default must be one of the choices.';
    }
  });
  f.icons.forEach((ic, i) => {
    if (!ic.src.trim()) w[`icons[${i}].src`] = 'Give the icon a URL (https: or data:), or remove it.';
    const bad = ic.sizes.split(/[\s,]+/).filter((s) => s && !/^(\d+x\d+|any)$/.test(s));
    if (bad.length) w[`icons[${i}].sizes`] = `Sizes look like 48x48 or any: ${bad.join(', ')}`;
  });
  if (f.messages.length === 0) w.messages = 'Add at least one message.';
  f.messages.forEach((m, i) => {
    const p = m.priority.trim();
    if (p !== '' && !(Number(p) >= 0 && Number(p) <= 1)) w[`messages[${i}].content.annotations.priority`] = 'Priority is a number from 0 (least) to 1 (most important).';
    if (m.type === 'include') checkInclude(m.include, i, declared, w);
    else if (m.type === 'text') {
      const scan = scanTemplate(m.text);
      const missing = scan.names.filter((n) => !declared.has(n));
      if (scan.error) w[`messages[${i}].content.text`] = `Template does not parse: ${scan.error}`;
      else if (missing.length) w[`messages[${i}].content.text`] = `Undeclared: ${missing.map((n) => `{{${n}}}`).join(', ')}. Add ${missing.length === 1 ? 'it' : 'them'} as arguments.`;
    } else if (m.type === 'resource' || m.type === 'resource_link') {
      const path = `messages[${i}].content.uri`;
      if (!m.uri.trim()) w[path] = 'Choose a resource or type a URI.';
      else if (isUriTemplate(m.uri)) {
        const missing = uriTemplateVars(m.uri).filter((n) => !declared.has(n));
        if (missing.length) w[path] = `URI template variables not declared as arguments: ${missing.join(', ')}.`;
      }
    } else if (!m.uri.trim() && !m.inline) w[`messages[${i}].content.resourceUri`] = `Choose a stored ${m.type} resource.`;
  });
  checkTests(f.tests, w);
  return w;
}

/** Variables a message uses: template tags, URI template variables, or an include's argument templates. */
export function messageVars(m: MsgRow): string[] {
  if (m.type === 'text') return scanTemplate(m.text).names;
  if (m.type === 'include') return includeVars(m.include);
  return m.type === 'resource' || m.type === 'resource_link' ? uriTemplateVars(m.uri) : [];
}

/** Every undeclared variable used by messages (templates and URI templates). */
export function undeclaredVars(f: Form): string[] {
  const declared = new Set(f.args.map((a) => a.name.trim()));
  const used = new Set<string>();
  for (const m of f.messages) {
    messageVars(m).forEach((n) => used.add(n));
  }
  return [...used].filter((n) => !declared.has(n));
}

/** Fresh row keys for a form restored from storage (its keys may collide with ones handed out since the page loaded). */
export function rekey(f: Form): Form {
  return {
    ...emptyForm(),
    ...f,
    icons: (f.icons ?? []).map((r) => ({ ...r, key: newKey() })),
    // Drafts saved before typed arguments, includes and tests lack those fields.
    args: (f.args ?? []).map((r) => ({ ...emptyArg(), ...r, key: newKey() })),
    messages: (f.messages ?? []).map((r) => ({ ...emptyMsg(), ...r, include: { ...emptyInclude(), ...r.include }, key: newKey() })),
    tests: (f.tests ?? []).map((t) => ({ ...t, key: newKey(), expect: (t.expect ?? []).map((e) => ({ ...e, key: newKey() })) })),
  };
}
