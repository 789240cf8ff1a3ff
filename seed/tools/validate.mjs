#!/usr/bin/env node
// Validates the seed library (seed/prompts/*.yaml + seed/resources.yaml) with the
// same libraries the server uses (yaml, mustache, url-template).
//
//   node seed/tools/validate.mjs                      # check everything, exit 1 on errors
//   node seed/tools/validate.mjs --render NAME k=v …  # print one prompt rendered (text parts)
//
// Checks: every file parses; only known keys; names are valid and match file names;
// every prompt and argument has a description; choices/maxLength are consistent;
// every message has a role and exactly one content part; every Mustache tag and
// section names a declared argument (no triple braces, partials or delimiter changes);
// every URI-template variable is a declared, required argument; every literal URI
// is a stored resource; every expansion of a template binding over the argument's
// choices resolves to a stored resource or resource template; image/audio parts
// point at binary resources; every manifest `file` exists and is small.
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { dirname, join, basename } from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import Mustache from "mustache";
import { parseTemplate } from "url-template";

const SEED = join(dirname(fileURLToPath(import.meta.url)), "..");
const NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;
const CONTENT_KEYS = ["text", "image", "audio", "resource", "resource_link"];
const MAX_FILE_BYTES = 50 * 1024;

const errors = [];
const warnings = [];
const err = (where, msg) => errors.push(`${where}: ${msg}`);
const warn = (where, msg) => warnings.push(`${where}: ${msg}`);

function load(path) {
  const doc = YAML.parseDocument(readFileSync(path, "utf8"), { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    for (const e of doc.errors) err(path, e.message);
    return null;
  }
  return doc.toJS();
}

function onlyKeys(where, obj, allowed) {
  for (const k of Object.keys(obj ?? {})) if (!allowed.includes(k)) err(where, `unknown key "${k}"`);
}

// ---- URI templates (RFC 6570) ------------------------------------------------
function templateVars(t) {
  const vars = [];
  for (const m of t.matchAll(/\{([^}]*)\}/g)) {
    const body = m[1].replace(/^[+#./;?&]/, "");
    for (const v of body.split(",")) vars.push(v.replace(/(\*|:\d+)$/, ""));
  }
  return vars;
}
const isTemplate = (u) => /\{[^}]*\}/.test(u);
function templateRegex(t) {
  let re = "^";
  let last = 0;
  for (const m of t.matchAll(/\{([^}]*)\}/g)) {
    re += t.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const op = m[1][0];
    re += op === "+" || op === "#" ? "(.+)" : op === "?" || op === "&" ? "(.*)" : "([^/?#&]+)";
    last = m.index + m[0].length;
  }
  return new RegExp(re + t.slice(last).replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$");
}

// ---- manifest ----------------------------------------------------------------
const manifestPath = join(SEED, "resources.yaml");
const manifest = load(manifestPath) ?? {};
onlyKeys("resources.yaml", manifest, ["resources", "resourceTemplates"]);
const resources = new Map();
const names = new Set();
for (const [i, r] of (manifest.resources ?? []).entries()) {
  const w = `resources.yaml resources[${i}]`;
  onlyKeys(w, r, ["uri", "name", "title", "description", "mimeType", "file", "text"]);
  if (!r.uri || isTemplate(r.uri)) err(w, "uri missing or contains a template expression");
  if (resources.has(r.uri)) err(w, `duplicate uri ${r.uri}`);
  if (!r.name || !NAME_RE.test(r.name)) err(w, `invalid name ${r.name}`);
  if (names.has(r.name)) err(w, `duplicate name ${r.name}`);
  names.add(r.name);
  if (!r.description) err(w, "description missing");
  if (!r.mimeType) err(w, "mimeType missing");
  const binary = /^(image|audio)\//.test(r.mimeType ?? "");
  if ((r.file === undefined) === (r.text === undefined)) err(w, "exactly one of file / text is required");
  if (r.file !== undefined) {
    const p = join(SEED, r.file);
    if (!existsSync(p)) err(w, `file ${r.file} does not exist`);
    else {
      const size = statSync(p).size;
      if (size > MAX_FILE_BYTES) err(w, `file ${r.file} is ${size} bytes (> ${MAX_FILE_BYTES})`);
      const buf = readFileSync(p);
      if (binary) {
        if (r.mimeType === "image/png" && buf.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") err(w, "not a PNG");
      } else {
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(buf);
        } catch {
          err(w, `file ${r.file} is not valid UTF-8`);
        }
      }
    }
  } else if (binary) err(w, "binary resources need a file");
  resources.set(r.uri, { ...r, binary, used: false });
}
const templates = [];
for (const [i, t] of (manifest.resourceTemplates ?? []).entries()) {
  const w = `resources.yaml resourceTemplates[${i}]`;
  onlyKeys(w, t, ["uriTemplate", "name", "title", "description", "mimeType", "text"]);
  if (!t.uriTemplate || !isTemplate(t.uriTemplate)) err(w, "uriTemplate missing or has no variables");
  if (!t.name || !NAME_RE.test(t.name)) err(w, `invalid name ${t.name}`);
  if (names.has(t.name)) err(w, `duplicate name ${t.name}`);
  names.add(t.name);
  if (!t.mimeType || typeof t.text !== "string") err(w, "mimeType and text are required");
  const vars = templateVars(t.uriTemplate ?? "");
  checkMustache(w, t.text ?? "", new Set(vars));
  templates.push({ ...t, re: templateRegex(t.uriTemplate ?? ""), used: false });
}

function resolve(uri) {
  if (resources.has(uri)) return resources.get(uri);
  return templates.find((t) => t.re.test(uri));
}

// ---- Mustache ----------------------------------------------------------------
function checkMustache(where, text, declared, used = new Set()) {
  let tokens;
  try {
    tokens = Mustache.parse(text);
  } catch (e) {
    err(where, `Mustache: ${e.message}`);
    return used;
  }
  const walk = (toks) => {
    for (const t of toks) {
      const [type, value] = t;
      if (type === "text") continue;
      if (type === "&") err(where, `triple braces / {{& }} are not allowed ({{{${value}}}})`);
      else if (type === ">" || type === "=" || type === "!") err(where, `tag type "${type}" is not allowed`);
      if (["name", "&", "#", "^"].includes(type)) {
        if (value === ".") err(where, "{{.}} is not allowed");
        else if (!declared.has(value)) err(where, `{{${type === "name" ? "" : type}${value}}} is not a declared argument`);
        used.add(value);
      }
      if (t[4]) walk(t[4]);
    }
  };
  walk(tokens);
  return used;
}

// ---- prompts -----------------------------------------------------------------
const promptDir = join(SEED, "prompts");
const prompts = new Map();
for (const file of readdirSync(promptDir).sort()) {
  if (!file.endsWith(".yaml")) {
    err(`prompts/${file}`, "only .yaml files belong here");
    continue;
  }
  const w0 = `prompts/${file}`;
  const p = load(join(promptDir, file));
  if (!p) continue;
  onlyKeys(w0, p, ["name", "title", "description", "note", "icons", "arguments", "messages"]);
  if (!NAME_RE.test(p.name ?? "")) err(w0, `invalid name ${p.name}`);
  if (`${p.name}.yaml` !== file) err(w0, `name ${p.name} does not match the file name`);
  if (!p.description) err(w0, "description missing");
  else if (!/[.)]$/.test(p.description)) warn(w0, "description does not end with a full stop (truncated by a # comment?)");
  const args = new Map();
  for (const [i, a] of (p.arguments ?? []).entries()) {
    const w = `${w0} arguments[${i}]`;
    onlyKeys(w, a, ["name", "title", "description", "required", "choices", "maxLength"]);
    if (!NAME_RE.test(a.name ?? "")) err(w, `invalid name ${a.name}`);
    if (/[.]/.test(a.name ?? "")) warn(w, "a dot in an argument name reads as a nested lookup in Mustache");
    if (args.has(a.name)) err(w, `duplicate argument ${a.name}`);
    if (!a.description) err(w, "description missing");
    else if (!/[.)]$/.test(a.description)) warn(w, "description does not end with a full stop (truncated by a # comment?)");
    if (typeof a.required !== "boolean") err(w, "required must be true or false");
    if (a.choices !== undefined) {
      if (!Array.isArray(a.choices) || !a.choices.length || !a.choices.every((c) => typeof c === "string" && c))
        err(w, "choices must be a non-empty list of strings (quote values YAML would read as numbers or booleans)");
      else if (new Set(a.choices).size !== a.choices.length) err(w, "duplicate choices");
      if (a.maxLength !== undefined && a.choices?.some((c) => c.length > a.maxLength)) err(w, "a choice is longer than maxLength");
    }
    if (a.maxLength !== undefined && !(Number.isInteger(a.maxLength) && a.maxLength > 0)) err(w, "maxLength must be a positive integer");
    args.set(a.name, a);
  }
  const declared = new Set(args.keys());
  const used = new Set();
  if (!Array.isArray(p.messages) || !p.messages.length) err(w0, "messages missing");
  for (const [i, m] of (p.messages ?? []).entries()) {
    const w = `${w0} messages[${i}]`;
    onlyKeys(w, m, ["role", "annotations", ...CONTENT_KEYS]);
    if (!["user", "assistant"].includes(m.role)) err(w, `role must be user or assistant, not ${m.role}`);
    const parts = CONTENT_KEYS.filter((k) => m[k] !== undefined);
    if (parts.length !== 1) {
      err(w, `exactly one of ${CONTENT_KEYS.join(", ")} is required (found ${parts.join(", ") || "none"})`);
      continue;
    }
    if (m.annotations !== undefined) {
      onlyKeys(`${w}.annotations`, m.annotations, ["audience", "priority"]);
      const { audience, priority } = m.annotations;
      if (audience !== undefined && !(Array.isArray(audience) && audience.every((x) => x === "user" || x === "assistant")))
        err(w, "annotations.audience must be a list of user / assistant");
      if (priority !== undefined && !(typeof priority === "number" && priority >= 0 && priority <= 1))
        err(w, "annotations.priority must be a number from 0 to 1");
    }
    const kind = parts[0];
    const value = m[kind];
    if (typeof value !== "string" || !value.trim()) {
      err(w, `${kind} must be a non-empty string`);
      continue;
    }
    if (kind === "text") {
      checkMustache(`${w}.text`, value, declared, used);
      continue;
    }
    // URI-bearing parts
    if (!isTemplate(value)) {
      const r = resolve(value);
      if (!r) err(w, `${kind} ${value} is not a stored resource`);
      else {
        r.used = true;
        if ((kind === "image" || kind === "audio") && !(r.mimeType ?? "").startsWith(`${kind}/`))
          err(w, `${kind} ${value} has mimeType ${r.mimeType}`);
      }
      continue;
    }
    if (kind !== "resource") warn(w, `${kind} uses a URI template; only resource bindings are documented to take templates`);
    const vars = templateVars(value);
    let combos = [{}];
    for (const v of vars) {
      used.add(v);
      const a = args.get(v);
      if (!a) {
        err(w, `URI template variable {${v}} is not a declared argument`);
        combos = [];
        continue;
      }
      if (!a.required) err(w, `URI template variable {${v}} is an optional argument; it would expand to nothing`);
      if (a.choices) combos = combos.flatMap((c) => a.choices.map((x) => ({ ...c, [v]: x })));
      else combos = combos.map((c) => ({ ...c, [v]: null }));
    }
    for (const c of combos) {
      if (Object.values(c).includes(null)) continue; // free-form argument: resolved at get time
      const uri = parseTemplate(value).expand(c);
      const r = resolve(uri);
      if (!r) err(w, `${value} with ${JSON.stringify(c)} expands to ${uri}, which is not a stored resource`);
      else r.used = true;
    }
  }
  for (const a of declared) if (!used.has(a)) warn(w0, `argument ${a} is never used`);
  prompts.set(p.name, p);
}

for (const r of resources.values()) if (!r.used) {
  // a resource may also be referenced through a free-form URI argument ({+fileUri}); say so, do not fail
  warnings.push(`resources.yaml: ${r.uri} is not referenced literally or through choices by any prompt`);
}
for (const t of templates) if (!t.used) warnings.push(`resources.yaml: template ${t.uriTemplate} is not used by any prompt`);

// ---- --render ----------------------------------------------------------------
const ri = process.argv.indexOf("--render");
if (ri >= 0) {
  const p = prompts.get(process.argv[ri + 1]);
  if (!p) {
    console.error(`unknown prompt ${process.argv[ri + 1]}`);
    process.exit(2);
  }
  const view = Object.fromEntries(process.argv.slice(ri + 2).map((kv) => [kv.split("=")[0], kv.split("=").slice(1).join("=")]));
  for (const m of p.messages) {
    const kind = CONTENT_KEYS.find((k) => m[k] !== undefined);
    console.log(`----- ${m.role} (${kind})`);
    if (kind === "text") console.log(Mustache.render(m.text, view, {}, { escape: (s) => s }));
    else console.log(isTemplate(m[kind]) ? parseTemplate(m[kind]).expand(view) : m[kind]);
  }
  process.exit(0);
}

for (const w of warnings) console.log(`warning: ${w}`);
for (const e of errors) console.log(`error: ${e}`);
console.log(`${prompts.size} prompts, ${resources.size} resources, ${templates.length} resource templates: ${errors.length} errors, ${warnings.length} warnings`);
process.exit(errors.length ? 1 : 0);
