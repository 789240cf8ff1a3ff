// Shows a GetPromptResult (server render) or a client-side draft render in the same way.
import type { Annotations, RenderedContent, RenderResult, Role } from '../../types';

export type DraftContent = RenderedContent | { type: 'note'; kind: 'image' | 'audio' | 'resource' | 'resource_link' | 'include'; text: string; warn?: boolean; annotations?: Annotations };

function annotationText(a: Annotations | undefined): string | null {
  if (!a) return null;
  const parts = [];
  if (a.audience?.length) parts.push(`for ${a.audience.join(' and ')}`);
  if (a.priority != null) parts.push(`priority ${a.priority}`);
  return parts.length ? parts.join(' · ') : null;
}
export interface DraftResult { description?: string; messages: { role: Role; content: DraftContent }[] }

function Body({ c }: { c: DraftContent }) {
  switch (c.type) {
    case 'text':
      return <pre className="rendered-text">{c.text}</pre>;
    case 'image':
      return <img className="rendered-media" src={`data:${c.mimeType};base64,${c.data}`} alt="Image content" />;
    case 'audio':
      return <audio controls src={`data:${c.mimeType};base64,${c.data}`} aria-label="Audio content" />;
    case 'resource':
      return (
        <div className="rendered-resource">
          <p className="muted">
            Embedded resource <code>{c.resource.uri}</code> {c.resource.mimeType && <span>({c.resource.mimeType})</span>}
          </p>
          {'text' in c.resource ? (
            <pre className="rendered-text">{c.resource.text}</pre>
          ) : (
            <p className="muted">Binary content, {Math.round((c.resource.blob.length * 3) / 4)} bytes</p>
          )}
        </div>
      );
    case 'resource_link':
      return (
        <p className="rendered-resource">
          Link to <code>{c.uri}</code> {c.name && <span className="muted">({c.name})</span>}
        </p>
      );
    case 'note':
      return <p className={`rendered-note${c.warn ? ' warn' : ''}`}>{c.text}</p>;
  }
}

export function RenderedMessages({ result }: { result: RenderResult | DraftResult }) {
  return (
    <div className="rendered" data-testid="preview-output">
      {result.description && <p className="muted">{result.description}</p>}
      {result.messages.length === 0 && <p className="muted">No messages.</p>}
      <ol className="rendered-list">
        {result.messages.map((m, i) => (
          <li key={i} className={`rendered-msg role-${m.role}`}>
            <span className="rendered-role">
              {m.role}
              {annotationText(m.content.annotations) && <span className="rendered-ann" data-testid="preview-annotations"> · {annotationText(m.content.annotations)}</span>}
            </span>
            <Body c={m.content} />
          </li>
        ))}
      </ol>
    </div>
  );
}
