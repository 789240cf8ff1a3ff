// Suggestions for include autocompletion: prompt names from GET /prompts?q= (debounced,
// newest request wins) and release label names from GET /labels.
import { useEffect, useState } from 'react';
import { api } from '../api';

export function usePromptNames(q: string | null, exclude?: string | null): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    if (q === null) return setNames([]);
    const ctl = new AbortController();
    const t = setTimeout(() => {
      api.listPrompts({ q: q || undefined, limit: 8, archived: 'false' }, ctl.signal).then(
        (p) => setNames(p.items.map((i) => i.name).filter((n) => n !== exclude)),
        () => {},
      );
    }, 150);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [q, exclude]);
  return names;
}

export function useLabelNames(enabled: boolean): string[] {
  const [labels, setLabels] = useState<string[]>([]);
  useEffect(() => {
    if (!enabled) return;
    api.listLabels().then((r) => setLabels(r.items.map((i) => i.label).filter((l) => l !== 'latest')), () => {});
  }, [enabled]);
  return labels;
}
