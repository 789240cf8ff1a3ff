// Rendering a version: argument validation, Mustache text, resource bindings.
// Size is checked before anything is rendered: argument values may add at most
// LIMITS.renderedArgumentChars characters (estimated from how often each value is
// written), and the whole result, embedded resources included, at most
// LIMITS.renderedPromptChars.
import { DomainError, type FieldError } from './errors.js';
import type { Argument, RenderedContent, RenderedPrompt, ResourceVisibility, Version } from './types.js';
import { estimateWrites, renderProblem, renderTemplate, templateInfo } from './template.js';
import { LIMITS } from './schemas.js';
import { expandUriTemplate, isUriTemplate, uriTemplateReferences, uriTemplateVariables } from './uri-template.js';
import { isRefusedUri } from './uri-schemes.js';
import { resolveArguments, type ArgumentValue } from './arguments.js';
import { type IncludeContext, includeError, newIncludeWork, prepareIncludes, renderIncludeMessage, textIncludes, valuesKey, yieldSometimes } from './render-includes.js';

export interface ResolvedResource {
  uri: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string;
  text?: string;
  /** base64 */
  blob?: string;
  /** a stored resource's visibility; a resource template's expansion is public (templates are listed) */
  visibility: ResourceVisibility;
}

export interface ResourceResolver {
  resolve(uri: string): Promise<ResolvedResource | null>;
}

/** The checks of resolveArguments (core/arguments.ts), without the parsed values. */
export function validateArguments(promptName: string, args: readonly Argument[], values: Record<string, ArgumentValue>): FieldError[] {
  return resolveArguments(promptName, args, values).errors;
}

const truncate = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** A copy with no prototype, so no key (`__proto__` included) is special. */
function nullProto<T>(values: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = Object.create(null);
  for (const [k, v] of Object.entries(values)) out[k] = v;
  return out;
}

const fail = (message: string, errors: FieldError[]) => new DomainError('validation', message, errors);

/**
 * Refuses, before rendering anything, a version saved before today's template
 * rules, and argument values that would make the output too large: every tag that
 * writes a value, in every text message and every bound URI template, counts.
 */
function checkBeforeRendering(promptName: string, version: Version, view: Record<string, string>): void {
  const byArgument = new Map<string, number>();
  for (const [i, m] of version.messages.entries()) {
    const c = m.content;
    if (c.type === 'text') {
      const info = templateInfo(c.text);
      const problem = renderProblem(info);
      if (problem) {
        const message = `prompt "${promptName}" version ${version.version} cannot be rendered: message ${i + 1}: ${problem}; save a new version`;
        throw fail(message, [{ path: `messages[${i}].content.text`, message: problem }]);
      }
      estimateWrites(info, view, byArgument);
    } else if (c.type !== 'include' && !('data' in c)) {
      const bound = 'resourceUri' in c ? c.resourceUri : c.uri;
      if (!isUriTemplate(bound)) continue;
      // An expansion is at least as long as the values it writes, and a URI longer
      // than LIMITS.uriLength matches nothing: refuse it before expanding.
      const here = new Map<string, number>();
      for (const { name, prefix } of uriTemplateReferences(bound)) {
        const v = view[name];
        if (v) here.set(name, (here.get(name) ?? 0) + Math.min(v.length, prefix ?? Infinity));
      }
      let sum = 0;
      for (const [name, n] of here) {
        sum += n;
        byArgument.set(name, (byArgument.get(name) ?? 0) + n);
      }
      if (sum > LIMITS.uriLength) {
        const name = [...here].sort((a, b) => b[1] - a[1])[0]![0];
        const message = `argument "${name}" makes the URI bound in message ${i + 1} of prompt "${promptName}" longer than ${LIMITS.uriLength} characters; send a shorter value`;
        throw fail(message, [{ path: `arguments.${name}`, message }]);
      }
    }
  }
  let total = 0;
  for (const n of byArgument.values()) total += n;
  if (total > LIMITS.renderedArgumentChars) {
    const [name, chars] = [...byArgument].sort((a, b) => b[1] - a[1])[0]!;
    const message =
      `argument "${name}" would add about ${chars} characters to prompt "${promptName}" ` +
      `(its ${view[name]!.length}-character value is written ${Math.round(chars / view[name]!.length)} times); argument values may add at most ` +
      `${LIMITS.renderedArgumentChars} characters to a rendering (${total} here): send a shorter value`;
    throw fail(message, [{ path: `arguments.${name}`, message }]);
  }
}

/** Characters a rendered message puts in the response (the bulk: text, data, embedded content). */
function sizeOf(c: RenderedContent): number {
  if (c.type === 'text') return c.text.length;
  if ('data' in c) return c.data.length;
  if (c.type === 'resource') return c.resource.uri.length + ('text' in c.resource ? c.resource.text.length : c.resource.blob.length);
  return c.uri.length + c.name.length + (c.title?.length ?? 0) + (c.description?.length ?? 0);
}

/**
 * `includes`: how this rendering resolves `{{> x}}` and include messages (the served
 * view's label, with production as fallback); without it a version that includes
 * another cannot be rendered.
 */
export async function renderVersion(
  promptName: string,
  version: Version,
  input: Record<string, ArgumentValue>,
  resolver: ResourceResolver,
  includes?: IncludeContext,
): Promise<RenderedPrompt> {
  const { errors, values: typed } = resolveArguments(promptName, version.arguments, nullProto(input));
  if (errors.length) throw new DomainError('validation', errors.map((e) => e.message).join('; '), errors);
  // Templates see typed values (a false boolean skips {{#flag}}); sizes and URI
  // templates see their text.
  const view: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(typed)) view[k] = String(v);
  checkBeforeRendering(promptName, version, view);
  const path = includes?.path ?? [promptName];
  // One memo and budget for the whole rendering, nested includes included (render-includes.ts).
  if (includes && !includes.work) includes = { ...includes, work: newIncludeWork() };
  const graph = await prepareIncludes(version.messages, includes, path);
  const partials = includes?.work && graph?.size ? textIncludes(graph, view, valuesKey(view), includes.work, path[0]!) : undefined;
  const messages: RenderedPrompt['messages'] = [];
  let size = 0;
  const add = (i: number, role: 'user' | 'assistant', out: RenderedContent) => {
    size += sizeOf(out);
    if (size > LIMITS.renderedPromptChars) {
      const message = `prompt "${promptName}" would be more than ${LIMITS.renderedPromptChars} characters long once message ${i + 1} is added (embedded resources and includes included); the limit is ${LIMITS.renderedPromptChars}`;
      throw fail(message, [{ path: `messages[${i}].content`, message: 'the rendered prompt is too large' }]);
    }
    messages.push({ role, content: out });
  };
  for (const [i, m] of version.messages.entries()) {
    await yieldSometimes(includes?.work);
    const c = m.content;
    if (c.type === 'include') {
      if (!includes) throw includeError(promptName, `message ${i + 1} includes "${c.prompt}", which this rendering cannot resolve`);
      const spliced = await renderIncludeMessage(c, view, includes, path, (name, v, args, ctx) => renderVersion(name, v, args, resolver, ctx));
      for (const sm of spliced.messages) add(i, sm.role, sm.content);
      continue;
    }
    const annotations = c.annotations ? { annotations: c.annotations } : {};
    let out: RenderedContent;
    if (c.type === 'text') {
      out = { type: 'text', text: renderTemplate(c.text, typed, undefined, partials), ...annotations };
    } else if ('data' in c) {
      out = { type: c.type, data: c.data, mimeType: c.mimeType, ...annotations };
    } else {
      const bound = 'resourceUri' in c ? c.resourceUri : c.uri;
      const templated = isUriTemplate(bound);
      const uri = templated ? expandUriTemplate(bound, view) : bound;
      const allow = 'allow' in c ? c.allow : undefined;
      if (templated && allow && !allow.some((prefix) => uri.startsWith(prefix))) throw outsideAllowList(promptName, bound, uri, allow);
      const found = uri ? await resolver.resolve(uri) : null;
      // The author named a literal URI, or allowed the expansion's prefixes: any stored
      // resource. An unrestricted template reaches only what clients may read anyway;
      // a bound resource is reported exactly like a missing one.
      const r = found && (!templated || allow || found.visibility === 'public') ? found : null;
      if (!r) {
        throw new DomainError('validation', `prompt "${promptName}" message ${i + 1} refers to "${uri || bound}", which is not a stored resource and matches no resource template`, [
          { path: `messages[${i}].content`, message: `resource "${uri || bound}" not found` },
        ]);
      }
      // Stored before schemes were checked: never hand a client a script or inline-document URI.
      if (isRefusedUri(r.uri)) {
        throw fail(`prompt "${promptName}" message ${i + 1} refers to "${r.uri}", whose scheme is not allowed; store the resource under another URI`, [
          { path: `messages[${i}].content`, message: 'URI scheme not allowed' },
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
    add(i, m.role, out);
  }
  return { ...(version.description ? { description: version.description } : {}), messages };
}

/** An expansion outside the binding's allow-list: the caller chose the arguments, so they are named. */
function outsideAllowList(promptName: string, template: string, uri: string, allow: string[]): DomainError {
  const vars = uriTemplateVariables(template);
  const message = `expands "${template}" to "${truncate(uri)}", outside what prompt "${promptName}" allows (${allow.join(', ')})`;
  return new DomainError(
    'validation',
    `argument${vars.length > 1 ? 's' : ''} ${vars.map((v) => `"${v}"`).join(', ')} ${message}`,
    vars.map((v) => ({ path: `arguments.${v}`, message })),
  );
}
