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
    super(message);
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
