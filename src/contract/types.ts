import type { Random } from '../core/random.js';
import type { CheckPlan, PlannedOperation } from './prepare/plan.js';
import type { ValuePool } from './prepare/value-pool.js';

export type Severity = 'error' | 'warning';

/** Why a request was sent: response checks judge statuses by it. */
export type Intent =
  /** A request the spec says must succeed. */
  | 'valid'
  /** A client mistake (invalid body or parameter): must be rejected with a 4xx. */
  | 'invalid'
  /** Missing or bad credentials: must get the documented 401. */
  | 'unauthenticated'
  /** A well-formed request for something that does not exist: must get the documented 404. */
  | 'absent';

/**
 * How firmly the document says a valid request must succeed. `must`: the document makes it valid
 * and acceptable (a documented example; required properties filled; reference fields holding values
 * the deployment itself gave), so refusing it is an error. `plausible`: valid by the schema, but the
 * document does not say it suffices (`{}` for a schema without `required`, a reference value kennel
 * had to invent), so a 4xx is at most a warning (docs/contract-checks.md, "Must accept").
 */
export type Acceptance = 'must' | 'plausible';

/** The request as sent, enough to replay it with curl. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; message: string } | undefined;

export interface ReceivedResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON (integers exact), undefined when empty. */
  json: ParsedBody;
  /** Bytes of the body as received (decompressed), when `text` may be only an excerpt of it. */
  size?: number;
}

/** One request and what came back (or why nothing did). */
export interface Exchange {
  operation: PlannedOperation;
  intent: Intent;
  /** What this request is for, in words (`listPets with limit=0`). */
  purpose: string;
  /** The spec documents a status for exactly this mistake: any other 4xx is an error, not a warning. */
  strictStatus?: boolean;
  /** For a valid request: whether the document says it must succeed (see `Acceptance`). */
  acceptance?: Acceptance;
  /** Reference slots of a plausible request that hold invented values (`path.siteId`, `owner/id`). */
  invented?: string[];
  request: SentRequest;
  response?: ReceivedResponse;
  /** Network failure or timeout. */
  error?: string;
  durationMs: number;
}

/** Something a check found wrong with the deployment. */
export interface CheckFailure {
  check: string;
  operationId: string;
  severity: Severity;
  /** One line: what is wrong. */
  title: string;
  expected?: string;
  actual?: string;
  /** JSON pointer into the response body, for schema failures. */
  pointer?: string;
  exchange?: Exchange;
  /**
   * Failures of a check on an operation with the same `group` are one finding. Unset (usual): the
   * same finding is the same severity, answering operation, status (or network error) and JSON
   * pointer with array indices as `*` (docs/contract-checks.md, "Unique findings").
   */
  group?: string;
}

/** Failures that are one fault: the first one as the example, with how often it came up. */
export interface Finding extends CheckFailure {
  /** Failures this finding stands for (1 or more). */
  occurrences: number;
  /** `pointer` with every array index as `*` (`/0/id` and `/7/id` are one pattern), when there is one. */
  pointerPattern?: string;
  /** Titles of later failures of this finding that say something else (at most 3). */
  alsoSeen: string[];
  /** The first example's value at `pointer` as JSON text (`"1"`), or `(absent)`. */
  found?: string;
}

/** What a scenario check asks the client to send. */
export interface RequestSpec {
  operation: PlannedOperation;
  intent: Intent;
  purpose: string;
  strictStatus?: boolean;
  /** For a valid request: how firmly it must succeed (unset: judged from the body, see `acceptanceOf`). */
  acceptance?: Acceptance;
  /**
   * Reference slots (a body property's name, `query.x`, `path.x`) whose value had to be invented
   * because the deployment gave none: a request with any is only `plausible`.
   */
  inventedReferences?: string[];
  pathParams?: Record<string, string>;
  query?: Record<string, string>;
  /** An absolute URL to send to as it is (a next-page link to follow): replaces the path and `query`. */
  url?: string;
  /** Header parameters (required ones the check does not set are filled from their schemas). */
  headers?: Record<string, string>;
  /** A JSON value to serialize, or `raw` text sent as is. */
  body?: { value: unknown } | { raw: string };
  /** Defaults to application/json when there is a body; null sends none. */
  contentType?: string | null;
  /** Required parameters left out on purpose (a request that must be refused for missing them). */
  omit?: OmittedParameter[];
  /** Credentials: the configured key (default), none, or an explicit Authorization header value. */
  auth?: 'valid' | 'none' | { authorization: string } | { apiKeyValue: string };
  /**
   * Set by `validRequest`: the reference slots (`query origin`, `body /departure_id`) it could not
   * fill with a value the deployment gave, so it sent a documented or generated one. Empty: every
   * reference of the request names something the deployment showed.
   */
  unresolvedReferences?: string[];
}

/** A required query, header or cookie parameter a request leaves out. */
export interface OmittedParameter {
  in: 'query' | 'header' | 'cookie';
  name: string;
}

export type Send = (request: RequestSpec) => Promise<Exchange>;

/** Facts learned during the run and shared between checks. */
export interface RunState {
  /** Resources created by this run, per collection path (`/pets`). */
  created: Map<string, CreatedResource[]>;
  /** Every value the deployment's 2xx JSON answers showed, by resource property and by name. */
  pool: ValuePool;
  /** Required query parameters that made a search answer a non-empty list, per operation id. */
  workingQueries: Map<string, Record<string, string>>;
  /**
   * Keys that creates answered, per URL path created under (`/v1/orders`): what each was first
   * given to (`createOrder 201`), so that a key handed out twice is seen whichever check sent it.
   */
  issuedIds: Map<string, Map<string, string>>;
}

export interface CreatedResource {
  sent: Record<string, unknown>;
  returned: Record<string, unknown>;
  id: unknown;
  /** The URL path it was created under (`/v1/owners/7/pets`): a sub-resource's ids are its parent's own. */
  scope?: string;
  /** An action of the run changed it without answering it (a 204): what it holds now is not known. */
  changedUnseen?: boolean;
}

export interface RunSettings {
  /** The configured key, for near-miss credentials (never reported in clear). */
  apiKey: string;
  readOnly: boolean;
  maxExamples: number;
  concurrency: number;
  runId: string;
  /** Names of created resources start with it, so a run's leftovers can be found. */
  namePrefix: string;
  /** The deployment's base URL (`--base-url`): links under it name the document's operations. */
  baseUrl: string;
}

/** Everything a scenario check can use; it never does I/O itself. */
export interface CheckContext {
  plan: CheckPlan;
  operation: PlannedOperation;
  send: Send;
  random: Random;
  state: RunState;
  settings: RunSettings;
}

export interface CheckOutcome {
  failures: CheckFailure[];
  /** Why the check does not apply here (the document gives it nothing to judge). */
  skipped?: string;
  /**
   * Why the check applied but never got the responses it needs to judge anything (`none of 12
   * creates answered 2xx: 400 ×10, 404 ×2`): never reported as passed.
   */
  unexercised?: string;
  /** Requests the check sent (for the summary). */
  notes?: string[];
}

interface CheckBase {
  name: string;
  description: string;
  severity: Severity;
}

/** Judges every exchange of the run (Schemathesis' response checks). */
export interface ResponseCheck extends CheckBase {
  kind: 'response';
  /** `state` is the run's (absent where exchanges are judged outside a run, as the mock's proxy does). */
  inspect(plan: CheckPlan, exchange: Exchange, state?: RunState): CheckFailure[];
}

/** Sends its own requests to probe one property of an operation. */
export interface ScenarioCheck extends CheckBase {
  kind: 'scenario';
  /** Undefined when the check applies to the operation, else why it does not. */
  skipReason(operation: PlannedOperation, plan: CheckPlan, settings: RunSettings): string | undefined;
  run(context: CheckContext): Promise<CheckOutcome>;
}

export type Check = ResponseCheck | ScenarioCheck;
