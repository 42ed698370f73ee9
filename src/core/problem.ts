/** The spec's Error body: every HTTP-facing error kennel sends has exactly this shape. */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

/** An HTTP-facing error, rendered by the mock's problem middleware into an `Error` body. */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    // An answer, not a fault: no stack trace to capture (it cost 2 % of a create when the store is full).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ProblemError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/** True when `value` has the spec's Error shape (used to decide whether a body can be re-used as-is). */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.code === 'string' && typeof body.message === 'string' && Number.isInteger(body.status);
}

const CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'invalid_api_key',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'invalid_request',
  429: 'rate_limited',
  431: 'headers_too_large',
};

/** The `code` kennel uses for a status when nothing more specific is known. */
export function defaultCode(status: number): string {
  return CODES[status] ?? (status >= 500 ? 'internal_error' : 'error');
}
