import type { IncomingMessage } from 'node:http';
import { exactNumbers } from '../../core/json.js';
import { ProblemError } from '../../core/problem.js';
import { essenceOf } from '../../openapi/operations.js';
import { coerceStyled, defaultOf, unstyledPathValue } from '../../openapi/parameter-value.js';
import { isObjectValued, pathObject, styledRaw, type RawParameter } from '../../openapi/parameter-style.js';
import { describeIssues } from '../../openapi/validators.js';
import type { CompiledOperation, CompiledParameter, FormMedia } from '../compiled-operation.js';
import { multipartFields, typedFields, urlEncodedFields } from './form-body.js';
import { hasBody, readJsonBodyThen, readRawBody } from './read-body.js';
import type { JsonBody, RequestInput } from '../../http/responder.js';
import { quoteShort, shorten } from '../../core/text.js';

export interface RawRequest {
  /** Path parameters by the document's names, as the router decoded them. */
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  headers: IncomingMessage['headers'];
  /** The path the client asked for, for messages. */
  path: string;
}

type Source = 'path' | 'query' | 'header' | 'cookie';

/** One cookie's value from the Cookie header (`a=1; b=2`), percent-decoded where it decodes. */
function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  for (const line of Array.isArray(header) ? header : header === undefined ? [] : [header]) {
    for (const pair of line.split(';')) {
      const equals = pair.indexOf('=');
      if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
      const value = pair.slice(equals + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

function rawValue(
  parameter: CompiledParameter,
  request: RawRequest,
  others: ReadonlySet<string>,
): RawParameter | undefined {
  if (parameter.in === 'path') return request.params[parameter.name];
  if (parameter.in === 'cookie') return cookieValue(request.headers.cookie, parameter.name);
  const source = { query: request.query, header: (name: string) => request.headers[name] };
  return styledRaw(parameter, parameter.resolvedSchema, source, others);
}

/** Empty text where the document says `allowEmptyValue: false` (Swagger 2 and OpenAPI 3 alike): refused. */
function emptyRefused(parameter: CompiledParameter, raw: RawParameter): boolean {
  if (parameter.allowEmptyValue !== false) return false;
  return raw === '' || (Array.isArray(raw) && raw.includes(''));
}

/** Why one parameter is unacceptable, or undefined when it is fine (the value lands in `into`). */
function readParameter(
  parameter: CompiledParameter,
  request: RawRequest,
  into: Record<string, unknown>,
  others: ReadonlySet<string>,
): string | undefined {
  const raw = rawValue(parameter, request, others);
  if (raw === undefined) {
    const fallback = defaultOf(parameter.resolvedSchema);
    if (fallback.present) into[parameter.name] = fallback.value;
    return parameter.required ? 'is required' : undefined;
  }
  if (emptyRefused(parameter, raw)) return 'must not be empty (allowEmptyValue: false)';
  const unstyled =
    parameter.in === 'path' && typeof raw === 'string'
      ? unstyledPathValue(raw, parameter.style, parameter.name, parameter.explode)
      : undefined;
  if (unstyled && !unstyled.ok) return unstyled.message;
  const fields =
    unstyled && isObjectValued(parameter.resolvedSchema) ? pathObject(unstyled.value, parameter.explode) : undefined;
  if (unstyled && isObjectValued(parameter.resolvedSchema) && !fields)
    return `must be an object's fields, ${parameter.explode ? '"name=value,…"' : '"name,value,…"'} (got ${quoteShort(raw)})`;
  const coerced = coerceStyled(fields ?? unstyled?.value ?? raw, parameter.resolvedSchema, parameter.explode);
  if (!coerced.ok) return coerced.message;
  const issues = parameter.validate?.(exactNumbers(coerced.value)) ?? [];
  if (issues.length > 0) return `${describeIssues(issues).replace(/^\(root\) /, '')} (got ${quoteShort(raw)})`;
  into[parameter.name] = coerced.value;
  return undefined;
}

/**
 * A path parameter the operation cannot take: no such resource (404). Where the document documents
 * a 400 (or 422) and no 404 for the operation, it is answered as that validation failure instead.
 */
export class PathParameterProblem extends ProblemError {
  /** What is wrong with the parameter, for the answer as a 400: `path parameter "row" must be <= 3`. */
  readonly sentence: string;

  constructor(path: string, sentence: string) {
    super(404, 'not_found', `Nothing found at ${shorten(path)}: ${sentence}`);
    this.sentence = sentence;
  }
}

const SOURCE_LABEL: Record<Source, string> = {
  path: 'path parameter',
  query: 'query parameter',
  header: 'header',
  cookie: 'cookie parameter',
};

/** Validates path, query, header and cookie parameters: a bad path parameter means "no such resource" (404). */
export function readParameters(compiled: CompiledOperation, request: RawRequest): Omit<RequestInput, 'body'> {
  const input: Omit<RequestInput, 'body'> = { path: {}, query: {}, headers: {} };
  const problems: string[] = [];
  let pathProblem: string | undefined;
  for (const parameter of compiled.parameters) {
    const source = parameter.in;
    // Cookie values are checked, not handed on: no answer of the mock depends on them.
    const target =
      source === 'path' ? input.path : source === 'query' ? input.query : source === 'header' ? input.headers : {};
    const problem = readParameter(parameter, request, target, compiled.queryNames);
    if (!problem) continue;
    const sentence = `${SOURCE_LABEL[source]} "${parameter.name}" ${problem}`;
    if (source === 'path') pathProblem ??= sentence;
    else problems.push(sentence);
  }
  if (pathProblem) throw new PathParameterProblem(request.path, pathProblem);
  if (problems.length > 0) throw new ProblemError(400, 'invalid_parameter', `Invalid request: ${problems.join('; ')}`);
  return input;
}

/** Reads and validates the body (JSON or a documented form); every offending field is named by its JSON pointer. */
export function readBody(compiled: CompiledOperation, request: IncomingMessage, limit: number): Promise<JsonBody> {
  const spec = compiled.body;
  if (!spec || (!spec.json && spec.forms.length === 0))
    return Promise.resolve({ text: '', value: undefined, present: false });
  const form = hasBody(request) ? formMediaOf(spec, request.headers['content-type']) : undefined;
  const checked = (body: JsonBody) => checkedBody(spec, form, body);
  return form ? readForm(form, request, limit).then(checked) : readJson(spec, request, limit, checked);
}

/** `body` when it is there where required and valid; else the 400 that says what is wrong. */
function checkedBody(spec: BodySpec, form: FormMedia | undefined, body: JsonBody): JsonBody {
  if (!body.present) {
    if (spec.required) throw new ProblemError(400, 'invalid_body', `Request body is required: send ${expected(spec)}`);
    return body;
  }
  const validate = form ? form.validate : spec.validate;
  const issues = validate?.(body.mayHoldBigInt === false ? body.value : exactNumbers(body.value)) ?? [];
  if (issues.length > 0)
    throw new ProblemError(400, 'invalid_body', `Request body is invalid: ${describeIssues(issues)}`);
  return body;
}

type BodySpec = NonNullable<CompiledOperation['body']>;

function expected(spec: BodySpec): string {
  const forms = spec.forms.map((form) => form.essence);
  if (forms.length === 0) return 'a JSON object';
  return spec.json ? `JSON or ${forms.join(' or ')}` : forms.join(' or ');
}

/** The documented form media type the request's Content-Type names, if any. */
function formMediaOf(spec: BodySpec, header: string | undefined): FormMedia | undefined {
  if (!header || spec.forms.length === 0) return undefined;
  const essence = essenceOf(header);
  return spec.forms.find((form) => form.essence === essence);
}

/** The JSON body, checked by `checked` in the reader's own promise (a refusal is its rejection). */
function readJson(
  spec: BodySpec,
  request: IncomingMessage,
  limit: number,
  checked: (body: JsonBody) => JsonBody,
): Promise<JsonBody> {
  if (!spec.json && hasBody(request)) {
    const sent = request.headers['content-type'];
    return Promise.reject(
      new ProblemError(
        400,
        'unsupported_media_type',
        `Content-Type must be ${expected(spec)}${sent ? `, not ${shorten(sent.split(';')[0]!.trim(), 100)}` : ''}`,
      ),
    );
  }
  return readJsonBodyThen(request, limit, checked);
}

/**
 * RFC 3986 reserved characters a client must encode: the gen-delims and `$ , ; =`. Left out: `&`
 * (it separates fields), `+` (a space in this media type) and `! ' ( ) *`, which the common
 * encoders (encodeURIComponent, the HTML form serializer) send as they are.
 */
const RESERVED = /[:/?#[\]@$,;=]/;

/** A field the document says must not carry reserved characters unencoded (`encoding.allowReserved: false`) that does. */
function refuseUnencodedReserved(form: FormMedia, text: string): void {
  if (form.encodedOnly.size === 0) return;
  for (const pair of text.split('&')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = new URLSearchParams(pair.slice(0, at)).keys().next().value ?? '';
    if (form.encodedOnly.has(name) && RESERVED.test(pair.slice(at + 1)))
      throw new ProblemError(
        400,
        'invalid_body',
        `Request body is invalid: field "${shorten(name, 100)}" holds reserved characters that must be percent-encoded (encoding.allowReserved: false)`,
      );
  }
}

async function readForm(form: FormMedia, request: IncomingMessage, limit: number): Promise<JsonBody> {
  const raw = await readRawBody(request, limit);
  const text = raw.toString('utf8');
  if (form.kind === 'urlencoded') refuseUnencodedReserved(form, text);
  const fields =
    form.kind === 'urlencoded'
      ? urlEncodedFields(text)
      : await multipartFields(raw, request.headers['content-type'] ?? '');
  if (fields.size === 0) return { text, value: undefined, present: false };
  return { text, value: typedFields(fields, form.schema), present: true, mayHoldBigInt: true };
}
