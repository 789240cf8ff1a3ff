// Whole-version validation on save (spec §3): every template parses, every
// `{{var}}` is a declared argument, every bound URI template's variables are
// declared, every referenced stored resource exists. Reports every failing path.
import type { FieldError } from './errors.js';
import type { VersionInput } from './schemas.js';
import { analyzeTemplate } from './template.js';
import { isUriTemplate, parseUriTemplate } from './uri-template.js';

export interface StoredResourceInfo {
  id: number;
  binary: boolean;
  mimeType: string;
}

/** Literal URIs a version refers to, to be looked up before validation. */
export function referencedUris(input: Pick<VersionInput, 'messages'>): string[] {
  const out = new Set<string>();
  for (const m of input.messages) {
    const c = m.content;
    const uri = 'resourceUri' in c ? c.resourceUri : 'uri' in c ? c.uri : undefined;
    if (uri !== undefined && !isUriTemplate(uri)) out.add(uri);
  }
  return [...out];
}

export function validateVersion(input: VersionInput, stored: Map<string, StoredResourceInfo>): FieldError[] {
  const errors: FieldError[] = [];
  const declared = new Set<string>();
  input.arguments.forEach((a, i) => {
    if (declared.has(a.name)) errors.push({ path: `arguments[${i}].name`, message: `argument "${a.name}" is declared twice` });
    declared.add(a.name);
    if (a.choices && a.maxLength) {
      const long = a.choices.find((c) => c.length > a.maxLength!);
      if (long) errors.push({ path: `arguments[${i}].choices`, message: `choice "${long}" is longer than maxLength ${a.maxLength}` });
    }
    if (a.choices && new Set(a.choices).size !== a.choices.length) errors.push({ path: `arguments[${i}].choices`, message: 'choices must be unique' });
  });

  input.messages.forEach((m, i) => {
    const c = m.content;
    const at = `messages[${i}].content`;
    if (c.type === 'text') {
      const { variables, error } = analyzeTemplate(c.text);
      if (error) errors.push({ path: `${at}.text`, message: `template does not parse: ${error}` });
      for (const v of variables) {
        if (!declared.has(v)) errors.push({ path: `${at}.text`, message: `{{${v}}} is not a declared argument` });
      }
      return;
    }
    if ('data' in c) {
      if (!c.mimeType.startsWith(`${c.type}/`)) errors.push({ path: `${at}.mimeType`, message: `an ${c.type} needs an ${c.type}/* mimeType` });
      return;
    }
    const field = 'resourceUri' in c ? 'resourceUri' : 'uri';
    const uri = 'resourceUri' in c ? c.resourceUri : c.uri;
    if (isUriTemplate(uri)) {
      if (c.type === 'image' || c.type === 'audio') {
        errors.push({ path: `${at}.${field}`, message: `${c.type} messages must name one stored resource, not a URI template` });
        return;
      }
      const { expressions, error } = parseUriTemplate(uri);
      if (error) errors.push({ path: `${at}.${field}`, message: error });
      for (const v of new Set(expressions.flatMap((e) => e.names))) {
        if (!declared.has(v)) errors.push({ path: `${at}.${field}`, message: `URI template variable {${v}} is not a declared argument` });
      }
      return;
    }
    const r = stored.get(uri);
    if (!r) {
      errors.push({ path: `${at}.${field}`, message: `no stored resource has the URI "${uri}"` });
      return;
    }
    if (c.type === 'image' || c.type === 'audio') {
      if (!r.binary || !r.mimeType.startsWith(`${c.type}/`)) {
        errors.push({ path: `${at}.${field}`, message: `resource "${uri}" is not a binary ${c.type}/* resource (it is ${r.mimeType})` });
      }
    }
  });
  return errors;
}
