// "Import prompts": drop or pick files (Claude commands, prompt.md, Dotprompt, Prompty,
// Langfuse, promptd YAML) or one .zip of them, see the server's dry-run plan with every warning, then apply.
// The plan is the same one `promptd import --format … --dry-run` prints.
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { errorMessage } from '../api';
import { IMPORT_FORMATS, importApi, type ImportFile, type ImportFormat, type ImportPlanItem, type ImportResult, type ImportSource } from '../import-api';
import { Banner } from './bits';

const FORMAT_LABELS: Record<ImportFormat, string> = {
  auto: 'Detect per file',
  'claude-commands': 'Claude Code commands / skills',
  'prompt-md': 'VS Code / Copilot prompt files',
  dotprompt: 'Dotprompt (.prompt)',
  prompty: 'Prompty (.prompty)',
  langfuse: 'Langfuse JSON',
  promptd: 'promptd YAML',
};
const ACTION_TEXT: Record<ImportPlanItem['action'], string> = { create: 'new prompt', 'new-version': 'new version', unchanged: 'unchanged', error: 'error' };

/** A picked file's path: its folder-relative path when a folder was picked (so `.claude/commands/x.md` is detected), else its name. */
const pathOf = (f: File) => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;

async function readFiles(list: FileList | File[]): Promise<ImportFile[]> {
  return Promise.all([...list].map(async (f) => ({ path: pathOf(f), text: await f.text() })));
}

const isZip = (f: File) => /\.zip$/i.test(f.name);

/** A zip is sent whole as base64; the server unpacks it under the same limits as files. */
async function readZip(f: File): Promise<{ name: string; base64: string }> {
  const bytes = new Uint8Array(await f.arrayBuffer());
  let bin = '';
  // In slices: String.fromCharCode(...all) would overflow the call stack on a big archive.
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { name: f.name, base64: btoa(bin) };
}

function versions(p: ImportPlanItem): string {
  if (p.action === 'create') return `v${p.creates?.join(', v')}`;
  if (p.action === 'new-version') return `v${p.latest} → v${p.creates?.join(', v')}`;
  if (p.action === 'unchanged') return `v${p.latest}`;
  return '';
}

function PlanTable({ result }: { result: ImportResult }) {
  return (
    // Focusable and named: the plan can scroll, and keyboard users must be able to scroll it.
    <div className="import-plan" data-testid="import-plan" tabIndex={0} role="region" aria-label="Import plan">
      <table>
        <caption className="sr-only">Import plan, one row per prompt file</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Prompt</th>
            <th scope="col">Result</th>
            <th scope="col">Versions</th>
          </tr>
        </thead>
        <tbody>
          {result.prompts.map((p) => (
            <tr key={p.file} data-testid="import-row" data-action={p.action} data-file={p.file}>
              <td><code>{p.file}</code></td>
              <td>{p.name ?? '—'}</td>
              <td>
                <span className={`badge badge-${p.action === 'error' ? 'warn' : p.action === 'unchanged' ? 'muted' : 'info'}`}>{ACTION_TEXT[p.action]}</span>
                {(p.errors ?? []).map((e, i) => (
                  <p key={`e${i}`} className="field-error" data-testid="import-error">{e.path}: {e.message}</p>
                ))}
                {p.warnings.map((w, i) => (
                  <p key={`w${i}`} className="import-warning" data-testid="import-warning">
                    {w.line !== undefined ? `line ${w.line}: ` : ''}{w.message}
                  </p>
                ))}
              </td>
              <td>{versions(p)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.skipped.length > 0 && <p className="hint" data-testid="import-skipped">Not prompt files, left out: {result.skipped.join(', ')}</p>}
    </div>
  );
}

function summary(r: ImportResult): string {
  const c = r.counts;
  const verb = r.dryRun ? 'Plan' : r.applied ? 'Imported' : 'Nothing imported';
  return `${verb}: ${c.created} new, ${c.newVersion} new version${c.newVersion === 1 ? '' : 's'}, ${c.unchanged} unchanged, ${c.errors} error${c.errors === 1 ? '' : 's'}.`;
}

export function ImportDialog({ onClose }: { onClose: (imported: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [opener] = useState(() => document.activeElement);
  const id = useId();
  const [files, setFiles] = useState<ImportFile[]>([]);
  const [zip, setZip] = useState<{ name: string; base64: string } | null>(null);
  const [format, setFormat] = useState<ImportFormat>('auto');
  const [activate, setActivate] = useState(true);
  const [skipErrors, setSkipErrors] = useState(false);
  const [plan, setPlan] = useState<ImportResult | null>(null);
  const [done, setDone] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const source: ImportSource | null = zip ? { zip: zip.base64 } : files.length ? { files } : null;

  // Every change of files or options asks the server for a fresh dry-run plan.
  useEffect(() => {
    if (!zip && !files.length) return setPlan(null);
    let live = true;
    setBusy(true);
    setError(null);
    importApi
      .run(zip ? { zip: zip.base64 } : { files }, format, { dryRun: true, activate, continueOnError: skipErrors })
      .then((r) => live && setPlan(r))
      .catch((e) => live && (setPlan(null), setError(errorMessage(e))))
      .finally(() => live && setBusy(false));
    return () => {
      live = false;
    };
  }, [files, zip, format, activate, skipErrors]);

  const close = () => {
    ref.current?.close();
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    onClose(Boolean(done?.applied));
  };
  const add = async (list: FileList | File[] | null) => {
    if (!list || !list.length) return;
    setDone(null);
    // A zip replaces whatever was chosen: the request carries either files or one zip.
    const archive = [...list].find(isZip);
    if (archive) {
      setZip(await readZip(archive));
      return setFiles([]);
    }
    const read = await readFiles(list);
    setZip(null);
    setFiles((prev) => [...prev.filter((f) => !read.some((r) => r.path === f.path)), ...read]);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void add(e.dataTransfer.files);
  };
  const apply = async () => {
    setBusy(true);
    setError(null);
    try {
      if (!source) return;
      const r = await importApi.run(source, format, { dryRun: false, activate, continueOnError: skipErrors });
      setDone(r);
      setPlan(null);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const blocked = !plan || busy || (plan.failed && !skipErrors) || plan.counts.created + plan.counts.newVersion + plan.counts.activated === 0;

  return (
    <dialog
      ref={ref}
      className="dialog import-dialog"
      aria-labelledby={`${id}-h`}
      data-testid="import-dialog"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <h2 id={`${id}-h`}>Import prompts</h2>
      <div
        className={`drop-zone${over ? ' drop-over' : ''}`}
        data-testid="import-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drop prompt files or a .zip of them here, or</p>
        {/* The inputs are visually hidden; their labels are the buttons (CSS shows the input's focus on its label). */}
        <input id={`${id}-files`} className="sr-only" type="file" multiple data-testid="import-files" onChange={(e) => void add(e.target.files)} />
        <label className="btn" htmlFor={`${id}-files`}>Choose files</label>
        <input id={`${id}-dir`} className="sr-only" type="file" multiple {...{ webkitdirectory: '' }} data-testid="import-folder" onChange={(e) => void add(e.target.files)} />
        <label className="btn" htmlFor={`${id}-dir`}>Choose a folder</label>
        {(files.length > 0 || zip) && (
          <p className="hint" data-testid="import-count">
            {zip ? <>Archive <code>{zip.name}</code> selected</> : `${files.length} file${files.length === 1 ? '' : 's'} selected`}{' '}
            <button type="button" className="btn btn-link" onClick={() => (setFiles([]), setZip(null), setDone(null))}>Clear</button>
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-fmt`}>Format</label>
        <select id={`${id}-fmt`} value={format} data-testid="import-format" onChange={(e) => setFormat(e.target.value as ImportFormat)}>
          {IMPORT_FORMATS.map((f) => <option key={f} value={f}>{FORMAT_LABELS[f]}</option>)}
        </select>
      </div>
      <div className="field check">
        <input id={`${id}-act`} type="checkbox" checked={activate} onChange={(e) => setActivate(e.target.checked)} />
        <label htmlFor={`${id}-act`}>Serve the imported versions</label>
      </div>
      <div className="field check">
        <input id={`${id}-skip`} type="checkbox" checked={skipErrors} data-testid="import-skip-errors" onChange={(e) => setSkipErrors(e.target.checked)} />
        <label htmlFor={`${id}-skip`}>Import the other files when some have errors</label>
      </div>
      {error && <Banner kind="error">{error}</Banner>}
      <p role="status" aria-live="polite" data-testid="import-status">
        {busy ? 'Working…' : done ? summary(done) : plan ? summary(plan) : source ? '' : 'No files yet.'}
      </p>
      {(done ?? plan) && <PlanTable result={(done ?? plan)!} />}
      <div className="dialog-actions">
        <button type="button" className="btn" data-testid="import-close" onClick={close}>{done ? 'Close' : 'Cancel'}</button>
        {!done && (
          <button type="button" className="btn btn-primary" data-testid="import-apply" disabled={blocked} onClick={() => void apply()}>
            Apply
          </button>
        )}
      </div>
    </dialog>
  );
}
