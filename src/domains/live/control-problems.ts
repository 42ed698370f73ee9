import { ProblemError } from '../../core/problem.js';
import { stringifyJson } from '../../core/json.js';
import type { HttpResponse } from '../../http/http-response.js';
import type { Outcome } from '../sim/model.js';

/** HTTP status for each refusal code of the simulator (404 missing things, 400 bad input, 409 the rest). */
const NOT_FOUND = new Set([
  'project_not_found',
  'domain_not_found',
  'redirect_not_found',
  'no_such_zone',
  'record_not_found',
  'zone_not_found',
  'scenario_not_found',
  'step_not_found',
  'certificate_not_issued',
]);
const INVALID = new Set([
  'invalid_name',
  'invalid_record',
  'unsupported_redirect_status',
  'unknown_provider',
  'unknown_resolver',
  'invalid_duration',
  'invalid_url',
  'invalid_scenario',
  'invalid_body',
]);

function statusOf(code: string): number {
  if (NOT_FOUND.has(code)) return 404;
  return INVALID.has(code) ? 400 : 409;
}

/** The simulator's refusal as an HTTP problem, its status chosen by its code. */
export function problem(code: string, message: string): ProblemError {
  return new ProblemError(statusOf(code), code, message);
}

/** A JSON answer. */
export function json(status: number, body: unknown): HttpResponse {
  return { status, json: stringifyJson(body) };
}

/** The value of a successful outcome; a refusal is thrown as its problem. */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw problem(outcome.code, outcome.message);
  return outcome.value;
}
