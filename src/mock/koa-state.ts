import type { ChaosNote } from './chaos/chaos-hook.js';
import type { ErrorScope } from './respond/documented-error.js';
import type { JournalRecord } from './admin/journal.js';

// What kennel's middlewares leave on `ctx.state` for the ones after them (the journal, the error
// renderer, chaos), typed once here instead of cast at each reader.
declare module 'koa' {
  interface DefaultState {
    /** The matched operation's id, set by the spec router (or the proxy's verdict). */
    operationId?: string;
    /** Who the request authenticated as: an API key's principal, null when none was needed. */
    principal?: string | null;
    /** The request body as text, for the journal (set once read). */
    requestBody?: string;
    /** How the matched operation renders its failures (documented-error.ts). */
    errorScope?: ErrorScope;
    /** The chaos a request met, for the journal. */
    chaos?: ChaosNote;
    /** Parts of the journal record set before the answer (the proxy's verdict, a redacted URL). */
    journal?: Partial<JournalRecord>;
  }
}
