import { loadDocument, type LoadedDocument } from '../openapi/load.js';
import { inferResources } from '../openapi/resource-model.js';
import { ResourceStore } from '../store/resource-store.js';
import type { MockApp } from '../mock/app.js';
import { koaListener } from './koa-listener.js';
import { carryOver, itemChecks, type CarryOver } from './store-carry-over.js';

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
 * request is routed and validated by the old document or the new one, never half of each. A
 * request still under way in the old app when the swap lands (delayed, its body arriving) reads
 * and writes the new store from then on (the old app hands its store over), so nothing it is told
 * was written is lost with the old store, and the ids it gets come from the new store's sequence.
 */
export class Reloadable {
  #document: LoadedDocument;
  #mock: MockApp;
  #handle: Handler;
  readonly #build: (document: LoadedDocument) => MockApp;

  constructor(document: LoadedDocument, mock: MockApp, build: (document: LoadedDocument) => MockApp) {
    this.#document = document;
    this.#mock = mock;
    this.#handle = koaListener(mock.app);
    this.#build = build;
  }

  get document(): LoadedDocument {
    return this.#document;
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
    let carried: CarryOver = { kept: 0, dropped: 0 };
    if (!shared) {
      // No await from here to the swap: no write can land in the old store after it is copied.
      const checks = itemChecks(spec, inferResources(spec), old);
      carried = carryOver(old, next, checks);
      // To the new app's own routing, so a later reload hands these requests on again.
      this.#mock.handOver(mock.requests, checks);
    }
    this.#document = spec;
    this.#mock = mock;
    this.#handle = koaListener(mock.app);
    return { file, operations: spec.operations.length, shared, ...carried };
  }
}
