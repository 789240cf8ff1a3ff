// One prompt: status, actions, version history, diff, server preview; refreshes on live changes.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiError, api, errorMessage } from '../api';
import { clearFlash, pushFlash } from '../flash';
import { useLive } from '../live';
import { focusLost, useFocusLater } from '../lib/focus';
import { href, Link } from '../router';
import type { PromptDetail, VersionSummary } from '../types';
import { Badge, Banner, Time } from './bits';
import { useDialog } from './dialog';
import { ServerPreview } from './preview/server-preview';
import { VersionDiff } from './version-diff';
import { VersionView } from './version-view';
import { activateLabel, VersionHistory } from './version-history';
import { PromptActions } from './prompt-actions';
import { LabelDialog } from './label-dialog';
import { LabelHistory } from './label-history';
import { TagChips, TagEditor } from './tag-chips';
import { useCan } from '../me';
import { LabelChips } from './label-chips';
import { PromptHistory } from './prompt-history';
import { UsagePanel } from './usage/usage-panel';
import { CheckResults } from './check-results';
import { PromptDeps } from './prompt-deps';
import { CheckRefusal, refusalOf, type Refusal } from './check-refusal';

export function PromptPage({ name, initialVersion = null }: { name: string; initialVersion?: number | null }) {
  const canEdit = useCan('editor');
  const canAdmin = useCan('admin');
  const [detail, setDetail] = useState<PromptDetail | null>(null);
  const [versions, setVersions] = useState<VersionSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [gone, setGone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [pair, setPair] = useState<[number, number] | null>(null);
  // Opened right after a save (?version=N): show that version, even if it is not the served one.
  const [previewV, setPreviewV] = useState<number | null>(initialVersion);
  const [labelsOf, setLabelsOf] = useState<number | null>(null);
  // Activating moves production: refused (409) when the version's checks fail; admins may force it.
  const [refused, setRefused] = useState<(Refusal & { version: number }) | null>(null);
  const [ask, dialog] = useDialog();
  const { revision } = useLive();
  const id = useId();
  const diffRef = useRef<HTMLElement>(null);
  const previewRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusLater = useFocusLater();
  const versionHeading = (n: number) => `${id}-v${n}`;

  const load = useCallback(async () => {
    try {
      const [{ data }, page] = await Promise.all([api.getPrompt(name), api.listVersions(name)]);
      setDetail(data);
      setVersions(page.items);
      setCursor(page.nextCursor);
      setError(null);
      setGone(false);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setGone(true);
      else setError(errorMessage(err));
    }
  }, [name]);

  useEffect(() => {
    void load();
  }, [load, revision]);
  useEffect(() => {
    document.title = `${name} · promptd`;
  }, [name]);

  const latest = detail?.latestVersion ?? null;
  const shown = previewV != null && latest != null && previewV <= latest ? previewV : (detail?.activeVersion ?? latest);
  const diffPair: [number, number] | null = pair ?? (latest && latest > 1 ? [detail?.activeVersion && detail.activeVersion !== latest ? detail.activeVersion : latest - 1, latest] : null);

  /** Runs an action with the buttons disabled; then focus goes to `focusTo`, else back where it was (or the heading). */
  const run = async (what: () => Promise<unknown>, done: string, reload = true, focusTo?: () => HTMLElement | null) => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setBusy(true);
    clearFlash();
    try {
      await what();
      if (done) pushFlash(done);
      setError(null);
      if (reload) await load();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      if (focusTo) focusLater(focusTo, () => before, () => headingRef.current);
      else if (before && before !== document.body) focusLater(() => (focusLost() ? before : null), () => (focusLost() ? headingRef.current : null));
    }
  };

  const activate = async (n: number) => {
    const label = activateLabel(n, detail?.activeVersion ?? null);
    const a = await ask({
      title: `${label}?`,
      message: <p>MCP clients will be served version {n} of <strong>{name}</strong> right away. No new version is created.</p>,
      confirmLabel: label,
    });
    if (a.ok) await doActivate(n, false);
  };
  const doActivate = (n: number, force: boolean) =>
    run(
      async () => {
        setRefused(null);
        try {
          await api.activate(name, n, force);
          pushFlash(`Now serving v${n}${force ? ' (forced: its checks fail)' : ''}.`);
        } catch (err) {
          const r = refusalOf(err);
          if (!r) throw err;
          setRefused({ ...r, version: n });
        }
      },
      '',
      true,
      () => document.getElementById(versionHeading(n)),
    );

  const moreVersions = async () => {
    if (!cursor) return;
    try {
      const page = await api.listVersions(name, cursor);
      setVersions((v) => [...v, ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  if (gone) {
    return (
      <section className="page">
        <h1>{name}</h1>
        <Banner kind="warning" testId="prompt-gone">
          This prompt does not exist (any more). It may have been renamed or deleted. <Link href={href.prompts()}>Back to prompts</Link>
        </Banner>
      </section>
    );
  }

  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      {dialog}
      {labelsOf != null && <LabelDialog name={name} version={labelsOf} onChanged={() => void load()} onClose={() => setLabelsOf(null)} />}
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link href={href.prompts()}>Prompts</Link> <span aria-hidden="true">/</span> <span>{name}</span>
      </nav>
      <div className="page-head">
        <div>
          <h1 id={`${id}-h`} className="mono" data-testid="prompt-heading" ref={headingRef} tabIndex={-1}>
            {name}
          </h1>
          {detail?.latest.title && <p className="subtitle">{(detail.active ?? detail.latest).title}</p>}
          {detail && (
            <p className="status-line" data-testid="prompt-status">
              <ServedBadge detail={detail} />
              <LabelChips labels={detail.labels} testId="prompt-label-chip" />
              <TagChips tags={detail.tags} />
              {canEdit && <TagEditor key={detail.tags.join(',')} name={name} tags={detail.tags} onSaved={() => void load()} />}
              <span className="muted">
                latest v{detail.latestVersion} · edited <Time iso={detail.updatedAt} />
              </span>
            </p>
          )}
        </div>
        {detail && <PromptActions detail={detail} busy={busy} ask={ask} run={run} onError={setError} />}
      </div>
      {detail?.latest.description && <p className="lead">{detail.latest.description}</p>}
      {error && <Banner kind="error">{error}</Banner>}
      {refused && <CheckRefusal refusal={refused} what={`serve v${refused.version}`} canForce={canAdmin} busy={busy} onForce={() => void doActivate(refused.version, true)} />}
      {!detail && !error && <p className="muted">Loading…</p>}
      {detail && (
        <div className="prompt-grid">
          <section aria-labelledby={`${id}-hist`} className="card">
            <h2 id={`${id}-hist`}>Versions</h2>
            <VersionHistory
              versions={versions}
              activeVersion={detail.activeVersion}
              busy={busy}
              headingId={versionHeading}
              onActivate={canAdmin ? activate : undefined}
              onLabels={canEdit ? setLabelsOf : undefined}
              onCompare={(n) => {
                const other = n === latest ? n - 1 : latest!;
                if (other >= 1) setPair(n < other ? [n, other] : [other, n]);
                diffRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                diffRef.current?.focus({ preventScroll: true });
              }}
              onPreview={(n) => {
                setPreviewV(n);
                previewRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                previewRef.current?.focus({ preventScroll: true });
              }}
            />
            {cursor && (
              <button type="button" className="btn btn-small" onClick={moreVersions}>
                Older versions
              </button>
            )}
            <h2 id={`${id}-moves`} className="label-moves-h">Label moves</h2>
            <LabelHistory name={name} revision={`${revision}:${detail.revision}`} />
          </section>
          <div className="stack">
            <section aria-labelledby={`${id}-view`} className="card" ref={previewRef} tabIndex={-1}>
              <h2 id={`${id}-view`} data-testid="version-view-heading">
                v{shown}
                {shown === detail.activeVersion && !detail.archived ? ' (served)' : ''}
                {shown === detail.latestVersion && shown !== detail.activeVersion ? ' (latest)' : ''}
              </h2>
              {shown != null && <VersionView name={name} version={shown} revision={revision} />}
            </section>
            <section aria-labelledby={`${id}-prev`} className="card">
              <h2 id={`${id}-prev`}>Preview v{shown}</h2>
              {shown != null && <ServerPreview key={shown} name={name} version={shown} revision={revision} />}
              {shown != null && <CheckResults key={`c${shown}`} name={name} version={shown} />}
            </section>
            <PromptDeps name={name} version={shown} revision={`${revision}:${detail.revision}`} />
            <section aria-labelledby={`${id}-diff`} className="card" ref={diffRef} tabIndex={-1}>
              <h2 id={`${id}-diff`}>Compare versions</h2>
              <VersionDiff
                name={name}
                versions={versions.map((v) => v.version)}
                from={diffPair?.[0] ?? null}
                to={diffPair?.[1] ?? null}
                served={detail.archived ? null : detail.activeVersion}
                onChange={(a, b) => setPair([a, b])}
                revision={revision}
              />
            </section>
            <UsagePanel name={name} activeVersion={detail.activeVersion} revision={`${revision}:${detail.revision}`} />
            <PromptHistory name={name} />
          </div>
        </div>
      )}
    </section>
  );
}

/** One statement of what MCP clients get: an archived prompt is not served, whatever version is active. */
function ServedBadge({ detail }: { detail: PromptDetail }) {
  if (detail.archived) {
    return (
      <>
        <Badge kind="warn">archived</Badge>
        <span className="muted" data-testid="served-note">
          not served{detail.activeVersion != null ? ` (v${detail.activeVersion} is served again if you unarchive)` : ''}
        </span>
      </>
    );
  }
  return detail.activeVersion != null ? <Badge kind="active">serving v{detail.activeVersion}</Badge> : <Badge kind="muted">not served</Badge>;
}
