import { ProblemError } from '../core/problem.js';

/** How an upstream failed to give an answer kennel can relay, besides Node's own socket errors. */
export type FailureKind = 'timeout' | 'switched-protocols' | 'status' | 'closed';

/** An upstream failure as an error the request's promise rejects with, mapped by `upstreamProblem`. */
export class UpstreamFailure extends Error {
  readonly kind: FailureKind;
  readonly status: number | undefined;

  constructor(kind: FailureKind, status?: number) {
    super(`upstream failure: ${kind}`);
    this.kind = kind;
    this.status = status;
  }
}

export function upstreamFailure(kind: FailureKind, status?: number): UpstreamFailure {
  return new UpstreamFailure(kind, status);
}

/**
 * The problem kennel answers for a failed upstream exchange: 504 when the upstream was silent
 * or slow, 502 for everything else, the message naming the upstream (`where`) and what it did.
 */
export function upstreamProblem(error: Error, where: string, timeoutMs: number): ProblemError {
  if (error instanceof UpstreamFailure && error.kind === 'timeout')
    return new ProblemError(
      504,
      'gateway_timeout',
      `The upstream ${where} did not answer within ${timeoutMs} ms (--proxy-timeout)`,
    );
  return new ProblemError(502, 'bad_gateway', `The upstream ${where} ${failed(error)}`);
}

function failed(error: Error): string {
  if (error instanceof UpstreamFailure) {
    switch (error.kind) {
      case 'switched-protocols':
        return 'answered 101 Switching Protocols to a request that asked for no protocol switch';
      case 'status':
        return `answered with status ${String(error.status ?? 0).padStart(3, '0')}, which is no final HTTP status (200-599)`;
      default:
        return 'closed the connection without answering';
    }
  }
  return `could not be reached: ${reason(error)}`;
}

function reason(error: NodeJS.ErrnoException): string {
  const code = error.code ?? '';
  if (code.startsWith('HPE_')) return `its answer is not HTTP (${code})`;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EPIPE':
      return 'connection closed while the request was sent';
    case 'ABORT_ERR':
      return 'the client went away';
    default:
      return code || error.message;
  }
}
