// Turns a version into diffable text lines, one section each for metadata, arguments and messages.
import type { Content, Version } from '../types';

export interface Section { title: string; lines: string[] }

/** A data: URI as its type, size and a short checksum (the base64 itself is unreadable, and long). */
export function shortUri(uri: string): string {
  const m = /^data:([^,]*),(.*)$/s.exec(uri);
  if (!m || uri.length < 80) return uri;
  let h = 0x811c9dc5;
  for (let i = 0; i < uri.length; i++) h = Math.imul(h ^ uri.charCodeAt(i), 0x01000193);
  const bytes = m[1]!.endsWith(';base64') ? Math.floor((m[2]!.length * 3) / 4) : m[2]!.length;
  return `data:${m[1]!.replace(/;base64$/, '')} (${bytes} B, #${(h >>> 0).toString(16).padStart(8, '0').slice(0, 6)})`;
}

function multi(label: string, value: string | null | undefined): string[] {
  if (value == null || value === '') return [`${label}: —`];
  const [first = '', ...rest] = value.split('\n');
  return [`${label}: ${first}`, ...rest.map((l) => `  ${l}`)];
}

function contentLines(c: Content): string[] {
  const out: string[] = [];
  if (c.type === 'text') out.push(...c.text.split('\n').map((l) => `  ${l}`));
  else if (c.type === 'image' || c.type === 'audio') {
    if ('resourceUri' in c) out.push(`  resource: ${c.resourceUri}`);
    else out.push(`  inline ${c.mimeType ?? ''} data (${Math.round(((c.data ?? '').length * 3) / 4)} bytes)`);
  } else if (c.type === 'include') {
    out.push(`  prompt: ${c.prompt}${c.label ? `@${c.label}` : c.version ? `@${c.version}` : ''}`);
    for (const [k, v] of Object.entries(c.arguments ?? {})) out.push(`  ${k}: ${v}`);
    return out;
  } else if ('uri' in c) out.push(`  uri: ${c.uri}`);
  const a = c.annotations;
  if (a?.audience?.length) out.push(`  audience: ${a.audience.join(', ')}`);
  if (a?.priority != null) out.push(`  priority: ${a.priority}`);
  return out;
}

export function versionSections(v: Version | null): Section[] {
  if (!v) return [{ title: 'Metadata', lines: [] }, { title: 'Arguments', lines: [] }, { title: 'Messages', lines: [] }];
  // The change note describes the change, it is not content: the diff shows it apart (versionNotes).
  const meta = [...multi('title', v.title), ...multi('description', v.description)];
  (v.icons ?? []).forEach((ic, i) => meta.push(`icon ${i + 1}: ${[shortUri(ic.src), ic.mimeType, ic.sizes?.join(' ')].filter(Boolean).join(' · ')}`));
  const args = v.arguments.flatMap((a) => {
    const lines = [`${a.name}${a.required ? ' (required)' : ' (optional)'}`];
    if (a.type && a.type !== 'string') lines.push(`  type: ${a.type}`);
    if (a.default != null) lines.push(`  default: ${String(a.default)}`);
    if (a.title) lines.push(`  title: ${a.title}`);
    if (a.description) lines.push(`  description: ${a.description}`);
    if (a.choices?.length) lines.push(`  choices: ${a.choices.join(', ')}`);
    if (a.maxLength != null) lines.push(`  maxLength: ${a.maxLength}`);
    return lines;
  });
  const msgs = v.messages.flatMap((m, i) => [`#${i + 1} ${m.role} · ${m.content.type}`, ...contentLines(m.content)]);
  return [
    { title: 'Metadata', lines: meta },
    { title: 'Arguments', lines: args.length ? args : ['(no arguments)'] },
    { title: 'Messages', lines: msgs },
    // Only when there are some, so versions without test cases diff as before.
    ...(v.tests?.length ? [{ title: 'Test cases', lines: testLines(v.tests) }] : []),
  ];
}

function testLines(tests: NonNullable<Version['tests']>): string[] {
  return tests.flatMap((t) => [
    `${t.name}`,
    ...Object.entries(t.arguments ?? {}).map(([k, v]) => `  ${k} = ${v}`),
    ...t.expect.map((e) => `  expect ${Object.entries(e).map(([k, v]) => `${k}: ${String(v)}`).join('')}`),
  ]);
}
