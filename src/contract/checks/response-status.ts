import { responseFor, type OperationResponse } from '../../openapi/operations.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { Exchange, Severity } from '../types.js';

/** `201`, or `no response (connection refused)`. */
export function statusText(exchange: Exchange): string {
  return exchange.response ? String(exchange.response.status) : `no response (${exchange.error ?? 'unknown'})`;
}

export function isSuccess(exchange: Exchange): boolean {
  return exchange.response !== undefined && exchange.response.status >= 200 && exchange.response.status < 300;
}

export function isClientError(exchange: Exchange): boolean {
  return exchange.response !== undefined && exchange.response.status >= 400 && exchange.response.status < 500;
}

/** The response the document declares for the exchange's status: an exact code, its `NXX` range, `default`. */
export function documentedResponse(exchange: Exchange): OperationResponse | undefined {
  return exchange.response && responseFor(exchange.operation.operation, exchange.response.status);
}

/** The documented statuses of an operation as text (`200, 401`). */
export function documentedStatuses(operation: PlannedOperation): string {
  return operation.operation.responses.map((response) => response.status).join(', ');
}

/**
 * How wrong it is to refuse a valid request: `severity` (the check's) when the document says it
 * must succeed, at most a warning when it is only plausible (docs/contract-checks.md, "Must accept").
 */
export function refusalSeverity(exchange: Exchange, severity: Severity = 'error'): Severity {
  return exchange.acceptance === 'plausible' ? 'warning' : severity;
}
