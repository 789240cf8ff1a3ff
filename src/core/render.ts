// Rendering a version: argument validation, Mustache text, resource bindings.
import { DomainError, type FieldError } from './errors.js';
import type { Argument, RenderedContent, RenderedPrompt, Version } from './types.js';
import { renderTemplate } from './template.js';
import { LIMITS } from './schemas.js';
import { expandUriTemplate, isUriTemplate } from './uri-template.js';

export interface ResolvedResource {
  uri: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string;
  text?: string;
  /** base64 */
  blob?: string;
}

export interface ResourceResolver {
  resolve(uri: string): Promise<ResolvedResource | null>;
}

export function validateArguments(promptName: string, args: readonly Argument[], values: Record<string, string>): FieldError[] {
  const errors: FieldError[] = [];
  const byName = new Map(args.map((a) => [a.name, a]));
  for (const k of Object.keys(values)) {
    if (!byName.has(k)) {
      const known = args.map((a) => a.name).join(', ') || 'no arguments';
      errors.push({ path: `arguments.${k}`, message: `unknown argument "${k}" for prompt "${promptName}" (it takes: ${known})` });
    }
  }
  for (const a of args) {
    const v = own(values, a.name);
    if (v === undefined || v === '') {
      if (a.required) errors.push({ path: `arguments.${a.name}`, message: `missing required argument "${a.name}" for prompt "${promptName}"` });
      continue;
    }
    if (a.choices && !a.choices.includes(v)) {
      errors.push({ path: `arguments.${a.name}`, message: `argument "${a.name}" must be one of: ${a.choices.join(', ')} (got "${truncate(v)}")` });
    }
    const max = Math.min(a.maxLength ?? LIMITS.argumentValueLength, LIMITS.argumentValueLength);
    if (v.length > max) {
      errors.push({ path: `arguments.${a.name}`, message: `argument "${a.name}" is ${v.length} characters long; the limit is ${max}` });
    }
  }
  return errors;
}

/** An argument's value, never an inherited Object.prototype member (`constructor`, `toString`…). */
const own = (values: Record<string, string>, name: string): string | undefined => (Object.hasOwn(values, name) ? values[name] : undefined);

const truncate = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

export async function renderVersion(promptName: string, version: Version, values: Record<string, string>, resolver: ResourceResolver): Promise<RenderedPrompt> {
  const errors = validateArguments(promptName, version.arguments, values);
  if (errors.length) throw new DomainError('validation', errors.map((e) => e.message).join('; '), errors);
  const view: Record<string, string> = {};
  for (const a of version.arguments) {
    const v = own(values, a.name);
    if (v !== undefined && v !== '') view[a.name] = v;
  }
  const messages: RenderedPrompt['messages'] = [];
  for (const [i, m] of version.messages.entries()) {
    const c = m.content;
    const annotations = c.annotations ? { annotations: c.annotations } : {};
    let out: RenderedContent;
    if (c.type === 'text') {
      out = { type: 'text', text: renderTemplate(c.text, view), ...annotations };
    } else if ('data' in c) {
      out = { type: c.type, data: c.data, mimeType: c.mimeType, ...annotations };
    } else {
      const bound = 'resourceUri' in c ? c.resourceUri : c.uri;
      const uri = isUriTemplate(bound) ? expandUriTemplate(bound, view) : bound;
      const r = uri ? await resolver.resolve(uri) : null;
      if (!r) {
        throw new DomainError('validation', `prompt "${promptName}" message ${i + 1} refers to "${uri || bound}", which is not a stored resource and matches no resource template`, [
          { path: `messages[${i}].content`, message: `resource "${uri || bound}" not found` },
        ]);
      }
      if (c.type === 'image' || c.type === 'audio') {
        out = { type: c.type, data: r.blob ?? Buffer.from(r.text ?? '').toString('base64'), mimeType: r.mimeType, ...annotations };
      } else if (c.type === 'resource') {
        const resource = r.blob !== undefined ? { uri: r.uri, mimeType: r.mimeType, blob: r.blob } : { uri: r.uri, mimeType: r.mimeType, text: r.text ?? '' };
        out = { type: 'resource', resource, ...annotations };
      } else {
        out = {
          type: 'resource_link',
          uri: r.uri,
          name: r.name,
          ...(r.title ? { title: r.title } : {}),
          ...(r.description ? { description: r.description } : {}),
          mimeType: r.mimeType,
          ...annotations,
        };
      }
    }
    messages.push({ role: m.role, content: out });
  }
  return { ...(version.description ? { description: version.description } : {}), messages };
}
