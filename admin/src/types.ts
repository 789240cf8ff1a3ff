// Shapes from docs/api-shapes.md (the REST contract).
export type Role = 'user' | 'assistant';
export type ContentType = 'text' | 'image' | 'audio' | 'resource' | 'resource_link';

export interface Icon { src: string; mimeType?: string; sizes?: string[] }
export interface Argument {
  name: string;
  title?: string | null;
  description?: string | null;
  required: boolean;
  choices?: string[] | null;
  maxLength?: number | null;
}
export interface Annotations { audience?: Role[]; priority?: number }
export type Content =
  | { type: 'text'; text: string; annotations?: Annotations }
  | { type: 'image'; resourceUri?: string; data?: string; mimeType?: string; annotations?: Annotations }
  | { type: 'audio'; resourceUri?: string; data?: string; mimeType?: string; annotations?: Annotations }
  | { type: 'resource'; uri: string; annotations?: Annotations }
  | { type: 'resource_link'; uri: string; annotations?: Annotations };
export interface Message { role: Role; content: Content }

export interface Version {
  version: number;
  title: string | null;
  description: string | null;
  icons: Icon[] | null;
  note: string | null;
  author: string | null;
  createdAt: string;
  arguments: Argument[];
  messages: Message[];
}
export interface VersionSummary {
  version: number;
  title: string | null;
  note: string | null;
  author: string | null;
  createdAt: string;
  active: boolean;
}
export interface PromptSummary {
  name: string;
  title: string | null;
  description: string | null;
  activeVersion: number | null;
  latestVersion: number;
  archived: boolean;
  updatedAt: string;
}
export interface PromptDetail {
  name: string;
  archived: boolean;
  activeVersion: number | null;
  latestVersion: number;
  createdAt: string;
  updatedAt: string;
  active: Version | null;
  latest: Version;
}
export interface VersionBody {
  title?: string | null;
  description?: string | null;
  icons?: Icon[] | null;
  note?: string | null;
  arguments: Argument[];
  messages: Message[];
  activate?: boolean;
}
export interface CreatePromptBody extends VersionBody { name: string }

export interface Resource {
  id: string | number;
  uri: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string;
  size: number;
  binary: boolean;
  createdAt: string;
  updatedAt: string;
}
export interface ResourceDetail extends Resource {
  text?: string;
  blob?: string;
  usedBy: { prompt: string; version: number; active: boolean }[];
}
export interface ResourceBody {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  text?: string;
  blob?: string;
}
export interface ResourceTemplate {
  id: string | number;
  uriTemplate: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}
export interface ResourceTemplateBody {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  text: string;
}
export interface ChangeEvent {
  id: string | number;
  at: string;
  actor: string | null;
  action: string;
  entity: string;
  entityKey: string;
  served: boolean;
}
export interface Page<T> { items: T[]; nextCursor: string | null }

/** MCP GetPromptResult as returned by POST /prompts/{name}/render. */
export type RenderedContent = (
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string }
) & { annotations?: Annotations };
export interface RenderResult {
  description?: string;
  messages: { role: Role; content: RenderedContent }[];
}

export interface FieldError { path: string; message: string }
export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  errors?: FieldError[];
}
