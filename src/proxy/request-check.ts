import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { ProblemError } from '../core/problem.js';
import type { Intent } from '../contract/types.js';
import type { LoadedDocument } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import { SchemaValidators } from '../openapi/validators.js';
import { compileOperation, type CompiledOperation } from '../mock/compiled-operation.js';
import type { Query } from '../mock/request/query.js';
import { readBody, readParameters, PathParameterProblem } from '../mock/request/request-input.js';
import { isUnder } from '../mock/routing/route-table.js';
import { PathMatcher } from '../mock/routing/path-matcher.js';
import type { Violation } from '../mock/respond/violation.js';

/** A request as the proxy read it: the body is the bytes held (all of it unless `complete` is false). */
export interface ProxiedRequest {
  method: string;
  path: string;
  query: Query;
  headers: IncomingHttpHeaders;
  cookie: (name: string) => string | undefined;
  body: Buffer;
  /** False when the body was longer than the validation limit and only its start is in `body`. */
  complete: boolean;
}

/** What the document says of a request: its operation, if any, how it breaks the document, and its intent. */
export interface RequestVerdict {
  operation: CompiledOperation | undefined;
  violations: Violation[];
  /** What the request is, for judging its response as the contract checker does. */
  intent: Intent;
}

interface Route {
  compiled: CompiledOperation;
  params: Record<string, string>;
}

function violation(rule: string, message: string, severity: Violation['severity'] = 'error'): Violation {
  return { location: 'request', rule, severity, message };
}

/** True when the request carries a credential for every scheme of one of the operation's requirements. */
function hasCredentials(operation: Operation, request: ProxiedRequest): boolean {
  const { requirements, schemes } = operation.security;
  if (requirements.length === 0) return true;
  return requirements.some((requirement) =>
    Object.keys(requirement).every((name) => {
      const scheme = schemes[name];
      if (!scheme) return true;
      if (scheme.type !== 'apiKey') return Boolean(request.headers.authorization);
      const where = scheme.in ?? 'header';
      if (!scheme.name) return true;
      if (where === 'query') return request.query[scheme.name] !== undefined;
      if (where === 'cookie') return request.cookie(scheme.name) !== undefined;
      return request.headers[scheme.name.toLowerCase()] !== undefined;
    }),
  );
}

/** The held body as the mock's body reader expects a request (it only reads headers and the stream). */
function asIncoming(request: ProxiedRequest): IncomingMessage {
  return Object.assign(Readable.from([request.body]), { headers: request.headers }) as unknown as IncomingMessage;
}

/**
 * Judges requests against the document with the mock's own readers (parameters, bodies, routes):
 * every way a request breaks the document becomes a violation instead of a refusal.
 */
export class RequestCheck {
  readonly #paths: PathMatcher<CompiledOperation[]>;
  readonly #prefix: string;

  constructor(document: LoadedDocument) {
    const validators = new SchemaValidators(document.document);
    this.#prefix = document.basePath;
    const byPath = new Map<string, CompiledOperation[]>();
    for (const operation of document.operations) {
      const list = byPath.get(operation.path) ?? [];
      list.push(compileOperation(document, validators, operation));
      byPath.set(operation.path, list);
    }
    // The mock's own path matching: `/pets/mine` is not `/pets/{petId}`.
    this.#paths = new PathMatcher([...byPath].map(([template, value]) => ({ template, value })));
  }

  /** Operations whose path the request's matches, most concrete path first, with their path parameters. */
  #candidates(request: ProxiedRequest): Route[] {
    if (!isUnder(request.path, this.#prefix)) return [];
    const rest = request.path.slice(this.#prefix.length) || '/';
    return this.#paths
      .match(rest, (name) => request.query[name])
      .flatMap((match) => match.value.map((compiled) => ({ compiled, params: match.params })));
  }

  async judge(request: ProxiedRequest): Promise<RequestVerdict> {
    const method = request.method.toLowerCase();
    // A browser's CORS preflight is the deployment's business, not an operation documents describe.
    if (method === 'options' && request.headers['access-control-request-method'] !== undefined)
      return { operation: undefined, violations: [], intent: 'valid' };
    const candidates = this.#candidates(request);
    const route =
      candidates.find((candidate) => candidate.compiled.operation.method === method) ??
      (method === 'head' ? candidates.find((candidate) => candidate.compiled.operation.method === 'get') : undefined);
    if (!route) return { operation: undefined, violations: [this.#unknown(request, candidates)], intent: 'invalid' };
    const violations = await this.#inputViolations(route, request);
    const operation = route.compiled.operation;
    if (!hasCredentials(operation, request)) {
      violations.push(
        violation('request-credentials-present', `${operation.id} requires credentials; none were sent`, 'warning'),
      );
      return { operation: route.compiled, violations, intent: 'unauthenticated' };
    }
    const invalid = violations.some((found) => found.severity === 'error');
    return { operation: route.compiled, violations, intent: invalid ? 'invalid' : 'valid' };
  }

  #unknown(request: ProxiedRequest, candidates: readonly Route[]): Violation {
    const method = request.method.toUpperCase();
    if (candidates.length > 0) {
      const allowed = [...new Set(candidates.map((route) => route.compiled.operation.method.toUpperCase()))];
      return violation(
        'request-operation-documented',
        `${method} is not documented for ${request.path} (documented: ${allowed.join(', ')})`,
      );
    }
    const hint = this.#prefix && !isUnder(request.path, this.#prefix) ? ` (the API lives under ${this.#prefix})` : '';
    return violation('request-operation-documented', `${method} ${request.path} is not in the document${hint}`);
  }

  async #inputViolations(route: Route, request: ProxiedRequest): Promise<Violation[]> {
    const violations: Violation[] = [];
    try {
      readParameters(route.compiled, {
        params: route.params,
        query: request.query,
        headers: request.headers,
        path: request.path,
      });
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      const message = error instanceof PathParameterProblem ? error.sentence : error.message;
      violations.push(violation('request-parameters-valid', message));
    }
    if (!request.complete) {
      violations.push(
        violation(
          'request-body-checked',
          'request body is longer than --max-body: forwarded whole, not validated',
          'warning',
        ),
      );
      return violations;
    }
    try {
      await readBody(route.compiled, asIncoming(request), Number.MAX_SAFE_INTEGER);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      violations.push(violation('request-body-valid', error.message));
    }
    return violations;
  }
}
