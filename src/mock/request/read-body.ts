import type { IncomingMessage } from 'node:http';
import { parse as parseContentType, type ContentType } from 'content-type';
import { findPrototypeKey, mayHoldPrototypeKey, parseJson } from '../../core/json.js';
import { ProblemError } from '../../core/problem.js';
import { isJsonMediaType } from '../../openapi/operations.js';
import type { JsonBody } from '../../http/responder.js';

/** A JSON request body: the exact text (for the journal) and the parsed value (unsafe integers as bigint). */

const NO_BODY: JsonBody = { text: '', value: undefined, present: false };

function badBody(code: string, message: string): ProblemError {
  return new ProblemError(400, code, message);
}

/**
 * Content-Type values accepted lately: a client sends the same one on every request, and parsing
 * it (a regular expression, lower-casing, a parameters object) was a tenth of a body's reading.
 */
const acceptedTypes = new Set<string>();
const ACCEPTED_TYPES_KEPT = 16;

/** Says which content type the request declares, refusing anything but JSON in UTF-8. */
function checkContentType(header: string | undefined): void {
  if (header !== undefined && acceptedTypes.has(header)) return;
  refuseUnlessJson(header);
  if (acceptedTypes.size >= ACCEPTED_TYPES_KEPT) acceptedTypes.clear();
  acceptedTypes.add(header!);
}

function refuseUnlessJson(header: string | undefined): void {
  if (!header)
    throw badBody('unsupported_media_type', 'Content-Type header is required: send Content-Type: application/json');
  let parsed: ContentType;
  try {
    parsed = parseContentType(header);
  } catch {
    throw badBody(
      'unsupported_media_type',
      `Content-Type ${JSON.stringify(header.slice(0, 100))} is not a valid media type`,
    );
  }
  if (!isJsonMediaType(parsed.type) || parsed.type === '*/*') {
    throw badBody('unsupported_media_type', `Content-Type must be application/json, not ${parsed.type}`);
  }
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw badBody('unsupported_media_type', `charset ${charset} is not supported: JSON bodies must be UTF-8`);
  }
}

/** True when the request announces a body (a length above zero, or chunks). */
export function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Reads and parses a JSON body of at most `limit` bytes; every client mistake becomes a 400 problem. */
export function readJsonBody(request: IncomingMessage, limit: number): Promise<JsonBody> {
  return readJsonBodyThen(request, limit, (body) => body);
}

/**
 * `readJsonBody`, then `then` on the body, in the one promise that waits for the bytes: a create
 * used to wait three times (the bytes, the parse, the check), each a turn of the microtask queue.
 * Every failure, the synchronous ones too, is the promise's rejection.
 */
export function readJsonBodyThen<T>(request: IncomingMessage, limit: number, then: (body: JsonBody) => T): Promise<T> {
  try {
    if (!hasBody(request)) return Promise.resolve(then(NO_BODY));
    checkContentType(request.headers['content-type']);
    const encoding = request.headers['content-encoding'];
    if (encoding && encoding.toLowerCase() !== 'identity') {
      throw badBody(
        'unsupported_media_type',
        `Content-Encoding ${encoding} is not supported: send the JSON body uncompressed`,
      );
    }
    if (!request.readable) throw unreadable('stream is not readable');
    return collect(request, limit, (bytes) => then(jsonBodyOf(bytes)));
  } catch (error) {
    return Promise.reject(asError(error));
  }
}

function jsonBodyOf(bytes: Buffer): JsonBody {
  // toString() with no argument is UTF-8 without looking the encoding's name up (~0.3 µs a body).
  const text = bytes.toString();
  if (isBlank(text)) return { text, value: undefined, present: false };
  const parsed = parseJson(text);
  if (!parsed.ok) throw badBody('malformed_json', `Request body is not valid JSON: ${parsed.message}`);
  const prototypeKey = mayHoldPrototypeKey(text) ? findPrototypeKey(parsed.value) : undefined;
  if (prototypeKey !== undefined) {
    throw badBody(
      'invalid_body',
      `Request body is invalid: ${prototypeKey} is not allowed (a "__proto__" key would rewrite an object's prototype)`,
    );
  }
  return { text, value: parsed.value, present: true, mayHoldBigInt: parsed.mayHoldBigInt };
}

/**
 * The whole body as bytes, at most `limit` of them; a body sent compressed or cut short is a 400
 * problem (thrown at once when the headers already say so). Not async: a body is one promise deep.
 */
export function readRawBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = request.headers['content-encoding'];
  if (encoding && encoding.toLowerCase() !== 'identity') {
    throw badBody(
      'unsupported_media_type',
      `Content-Encoding ${encoding} is not supported: send the body uncompressed`,
    );
  }
  if (!request.readable) throw unreadable('stream is not readable');
  return collect(request, limit, (bytes) => bytes);
}

/** Whether `text` is empty or white space only (what `trim()` removes), without making the trimmed copy. */
function isBlank(text: string): boolean {
  for (let offset = 0; offset < text.length; offset += 1) {
    const code = text.charCodeAt(offset);
    // Anything but ASCII white space ends the scan; the rest of Unicode's white space is rare enough for trim().
    if (code > 0x20) return code < 0x80 ? false : text.trim() === '';
    if (code !== 0x20 && (code < 0x09 || code > 0x0d)) return false;
  }
  return true;
}

/** What was thrown, as the Error it always is here (a ProblemError, or a bug's TypeError). */
function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

function unreadable(reason: string): ProblemError {
  return badBody('malformed_body', `Request body could not be read: ${reason}`);
}

/**
 * The body's chunks, refused as soon as they pass `limit` (what raw-body did, without its promise
 * wrapper, error objects and argument copies on every request). A refused body is left unread and
 * the request paused: app.ts closes the connection rather than drain a large rest.
 */
function collect<T>(request: IncomingMessage, limit: number, then: (bytes: Buffer) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    // A body read whole leaves its listeners on a request that ends with this exchange: removing
    // five listeners cost more than reading the body. A refused one stops listening at once.
    const fail = (problem: ProblemError) => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      request.unpipe();
      request.pause();
      reject(problem);
    };
    function onData(chunk: Buffer): void {
      received += chunk.length;
      if (received > limit) fail(badBody('payload_too_large', `Request body is larger than the ${limit}-byte limit`));
      else chunks.push(chunk);
    }
    function onEnd(): void {
      if (settled) return;
      settled = true;
      try {
        resolve(then(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)));
      } catch (error) {
        reject(asError(error));
      }
    }
    request.on('aborted', () => fail(unreadable('request aborted')));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', (error: Error) => fail(unreadable(error.message)));
  });
}
