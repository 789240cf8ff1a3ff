// Preview through POST /prompts/{name}/render: exactly what MCP prompts/get returns.
import { useEffect, useState } from 'react';
import { api, errorMessage } from '../../api';
import { loadSamples, saveSamples } from '../../lib/drafts';
import type { Argument, RenderResult } from '../../types';
import { Banner } from '../bits';
import { RenderedMessages } from './rendered-messages';
import { nonEmpty, SampleArgs, withDefaults } from './sample-args';

interface Props {
  name: string;
  version: number;
  revision?: number;
}

export function ServerPreview({ name, version, revision = 0 }: Props) {
  const [args, setArgs] = useState<Argument[]>([]);
  const [loaded, setLoaded] = useState(false);
  // Shared with the editor's preview: the sample values typed there are here too, and back.
  const [values, setValuesState] = useState<Record<string, string>>(() => loadSamples(name));
  const setValues = (v: Record<string, string>) => {
    setValuesState(v);
    saveSamples(name, v);
  };
  const [result, setResult] = useState<RenderResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const effective = withDefaults(values, args);
  const key = JSON.stringify(nonEmpty(effective, args.map((a) => a.name)));

  useEffect(() => {
    let live = true;
    api.getVersion(name, version).then(
      (v) => {
        if (!live) return;
        setArgs(v.arguments);
        setLoaded(true);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [name, version]);

  const missing = args.filter((a) => a.required && !effective[a.name]).map((a) => a.name);
  const ready = loaded && missing.length === 0;

  useEffect(() => {
    if (!ready) return;
    const ctl = new AbortController();
    const t = setTimeout(async () => {
      setLoading(true);
      try {
        setResult(await api.render(name, JSON.parse(key) as Record<string, string>, version, ctl.signal));
        setError(null);
      } catch (err) {
        if ((err as Error).name === 'AbortError') return;
        setError(errorMessage(err));
        setResult(null);
      } finally {
        if (!ctl.signal.aborted) setLoading(false);
      }
    }, 300);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [name, version, key, revision, ready]);

  return (
    <div className="preview" aria-busy={loading}>
      <SampleArgs args={args} values={values} onChange={setValues} />
      <p className="muted" data-testid="preview-mode">
        Rendered by the server from saved v{version}, exactly as MCP clients receive it.
      </p>
      {loaded && missing.length > 0 && (
        <p className="muted" data-testid="preview-missing">
          Fill in {missing.join(', ')} to render (required).
        </p>
      )}
      {error && ready && (
        <Banner kind="warning" testId="preview-error">
          {error}
        </Banner>
      )}
      {result && ready && <RenderedMessages result={result} />}
    </div>
  );
}
