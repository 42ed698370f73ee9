import { loadDocument, type LoadedDocument } from '../openapi/load.js';
import { inferResources } from '../openapi/resource-model.js';
import { ResourceStore } from '../store/resource-store.js';
import type { MockApp } from './app.js';
import { carryOver, type CarryOver } from './store-carry-over.js';

type Handler = ReturnType<MockApp['app']['callback']>;

/** What a successful reload serves now. */
export interface Reloaded extends CarryOver {
  file: string;
  operations: number;
  /** The store is shared (Redis): left as it is, so kept and dropped are not counted. */
  shared: boolean;
}

/**
 * The app behind the HTTP listener, replaceable while it runs: a reload builds the whole new app
 * (routes, validators, resource model, store) first and swaps it in with one assignment, so a
 * request sees the old document or the new one, never half of each.
 */
export class Reloadable {
  #spec: LoadedDocument;
  #mock: MockApp;
  #handle: Handler;
  readonly #build: (document: LoadedDocument) => MockApp;

  constructor(spec: LoadedDocument, mock: MockApp, build: (document: LoadedDocument) => MockApp) {
    this.#spec = spec;
    this.#mock = mock;
    this.#handle = mock.app.callback();
    this.#build = build;
  }

  get spec(): LoadedDocument {
    return this.#spec;
  }

  get mock(): MockApp {
    return this.#mock;
  }

  /** The listener for the HTTP server: always the current app's. */
  readonly handle: Handler = (request, response) => this.#handle(request, response);

  /** Loads `file` and swaps it in; a document that fails to load throws its ToolError and changes nothing. */
  async reload(file: string): Promise<Reloaded> {
    const spec = await loadDocument(file);
    const mock = this.#build(spec);
    const [old, next] = [this.#mock.store, mock.store];
    // A shared store (Redis) keeps its items itself, for every replica: nothing to carry over.
    const shared = !(old instanceof ResourceStore && next instanceof ResourceStore);
    const carried = shared ? { kept: 0, dropped: 0 } : carryOver(old, next, spec, inferResources(spec));
    this.#spec = spec;
    this.#mock = mock;
    this.#handle = mock.app.callback();
    return { file, operations: spec.operations.length, shared, ...carried };
  }
}
