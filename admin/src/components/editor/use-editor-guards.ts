// Protects unsaved editor work: autosaves it locally, asks before leaving (links, Back, closing the tab), Ctrl/Cmd+S saves.
import { useEffect, useRef, type RefObject } from 'react';
import { saveDraft, type Draft } from '../../lib/drafts';
import { setLeaveGuard } from '../../router';
import type { Answer, AskOptions } from '../dialog';

interface Options {
  name: string | null;
  dirty: RefObject<boolean>;
  draft: Omit<Draft, 'savedAt'> | null;
  ask: (o: AskOptions) => Promise<Answer>;
  formRef: RefObject<HTMLFormElement | null>;
  /** Debounce of the local autosave. */
  autosaveMs?: number;
}

export function useEditorGuards({ name, dirty, draft, ask, formRef, autosaveMs = 300 }: Options): void {
  // Autosave: the latest form, shortly after each change.
  const latest = useRef(draft);
  latest.current = draft;
  useEffect(() => {
    if (!draft || !dirty.current) return;
    // dirty is read again when the timer fires: a save that succeeded in between cleared
    // the draft, and writing it back would restore saved work as unsaved on the next visit.
    const t = setTimeout(() => {
      if (dirty.current) saveDraft(name, draft);
    }, autosaveMs);
    return () => clearTimeout(t);
  }, [draft?.form, draft?.base]);
  // Leaving before the debounce fired must not lose the last keystrokes.
  useEffect(() => {
    const flush = () => {
      if (dirty.current && latest.current) saveDraft(name, latest.current);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [name]);

  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (!dirty.current) return;
      e.preventDefault();
      e.returnValue = ''; // older engines need it to show the prompt
    };
    window.addEventListener('beforeunload', warn);
    const unguard = setLeaveGuard(() => {
      if (!dirty.current) return true;
      return ask({
        title: 'Leave with unsaved changes?',
        message: 'They are not saved on the server yet. A copy stays in this browser and comes back when you open this editor again.',
        confirmLabel: 'Leave',
        cancelLabel: 'Stay',
      }).then((a) => a.ok);
    });
    return () => {
      window.removeEventListener('beforeunload', warn);
      unguard();
    };
  }, [ask]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        if (!document.querySelector('dialog[open]')) formRef.current?.requestSubmit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [formRef]);
}
