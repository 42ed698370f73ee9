import type { OpenApiDocument } from './openapi-types.js';

/** What a banner or a health answer calls the API: the document's `info.title` and `info.version`. */
export interface DocumentInfo {
  title: string;
  version: string;
}

/**
 * The document's title and version, with fallbacks where `info` (required by OpenAPI, but
 * missing from many documents written for tools that did not insist) or its fields are absent or
 * not text: `untitled API` and `(no version)`.
 */
export function documentInfo(document: Pick<OpenApiDocument, 'info'>): DocumentInfo {
  const info: Record<string, unknown> =
    typeof document.info === 'object' && document.info !== null ? document.info : {};
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : undefined;
  return { title: text(info.title) ?? 'untitled API', version: text(info.version) ?? '(no version)' };
}
