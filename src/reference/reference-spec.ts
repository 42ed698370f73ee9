import type { LoadedDocument } from '../openapi/load.js';

/** What the reference is rendered from: a loaded document (any document kennel serves). */
export type ReferenceSpec = Pick<LoadedDocument, 'document' | 'dereferenced' | 'operations' | 'basePath'>;
