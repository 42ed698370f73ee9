import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { parseJson } from '../core/json.js';
import { buildPlan, type CheckPlan, type PlannedOperation } from '../contract/prepare/plan.js';
import { RESPONSE_CHECKS } from '../contract/checks/registry.js';
import type { Exchange, Intent, ReceivedResponse, SentRequest } from '../contract/types.js';
import type { LoadedDocument } from '../openapi/load.js';
import type { Violation } from '../mock/respond/violation.js';

/** The upstream's body as the checks read it: decoded text, or why it could not be. */
export type DecodedBody = { ok: true; text: string; size: number } | { ok: false; reason: string };

const DECODERS: Record<string, (input: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The body as UTF-8 text, decompressed when the upstream compressed it (to at most `limit` bytes:
 * a compression bomb stops there). The bytes forwarded are never these: the client gets what came.
 */
export function decodeBody(head: Buffer, headers: IncomingHttpHeaders, limit: number): DecodedBody {
  const coding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (coding === 'identity' || coding === '') return { ok: true, text: head.toString('utf8'), size: head.length };
  const decode = DECODERS[coding];
  if (!decode) return { ok: false, reason: `Content-Encoding ${coding} is not one kennel can read` };
  try {
    const plain = decode(head, { maxOutputLength: limit });
    return { ok: true, text: plain.toString('utf8'), size: plain.length };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason:
        code === 'ERR_BUFFER_TOO_LARGE'
          ? `the ${coding} body decompresses to more than ${limit} bytes`
          : `the ${coding} body cannot be decompressed`,
    };
  }
}

function headerText(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

/** What the upstream answered, as the response checks take it. */
export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: DecodedBody;
}

/**
 * Judges upstream answers with the contract checker's response checks (status, content type,
 * schema, headers, error body, deprecation, auth challenge): the same rules `kennel check`
 * applies, so a finding reads the same whichever tool made it.
 */
export class ResponseCheck {
  readonly #plan: CheckPlan;
  readonly #operations: Map<string, PlannedOperation>;

  constructor(document: LoadedDocument) {
    this.#plan = buildPlan(document);
    this.#operations = new Map(this.#plan.all.map((planned) => [planned.id, planned]));
  }

  judge(operationId: string, intent: Intent, request: SentRequest, response: UpstreamResponse): Violation[] {
    const operation = this.#operations.get(operationId);
    if (!operation) return [];
    const body = response.body;
    // An unread body is not an empty one: the content type is still judged, the bytes are not.
    const text = body.ok ? body.text : '(not read)';
    const received: ReceivedResponse = {
      status: response.status,
      headers: headerText(response.headers),
      text,
      json: !body.ok || text.trim() === '' ? undefined : parseJson(text),
    };
    const exchange: Exchange = {
      operation,
      intent,
      purpose: `${request.method} ${new URL(request.url, 'http://upstream').pathname}`,
      request,
      response: received,
      durationMs: 0,
    };
    const violations: Violation[] = [];
    if (!body.ok)
      violations.push({
        location: 'response',
        rule: 'response-body-checked',
        severity: 'warning',
        message: `body not validated: ${body.reason}`,
      });
    const checks = body.ok ? RESPONSE_CHECKS : RESPONSE_CHECKS.filter((check) => !READS_BODY.has(check.name));
    for (const check of checks) {
      for (const failure of check.inspect(this.#plan, exchange)) {
        violations.push({
          location: 'response',
          rule: failure.check,
          severity: failure.severity,
          message: failure.expected ? `${failure.title} (expected ${failure.expected})` : failure.title,
          ...(failure.pointer !== undefined ? { pointer: failure.pointer } : {}),
        });
      }
    }
    return violations;
  }
}

/** Checks that judge the body's bytes: skipped when kennel did not hold the whole body. */
const READS_BODY = new Set(['response-schema-conformance', 'error-body-conformance']);
