// The fault proxy's faults that need the document (bench/lib/fault-document.js) to be faults: a
// status, a body or a header the document rules out, or an answer that names another item. Each
// handler gets the exchange's context and answers in the proxy's { status, headers, body } form.
import { BODY_FAULTS, faultyBody, strayErrorBody } from './fault-bodies.js';
import { documentedResponse, documents, jsonSchemaOf } from './fault-document.js';

export const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
export const isSuccess = (status) => status >= 200 && status < 300;
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const pathOf = (url) => url.split('?')[0];
const lastSegment = (url) => pathOf(url).split('/').filter(Boolean).at(-1) ?? '';

export function jsonOf(answer) {
  if (!JSON_TYPE.test(answer.headers['content-type'] ?? '')) return undefined;
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Whether two answers would look the same to a client: status and body. */
export const sameAnswer = (one, other) => one.status === other.status && one.body.equals(other.body);

const withJson = (answer, value) => ({
  ...answer,
  headers: { ...answer.headers, 'content-type': answer.headers['content-type'] ?? 'application/json' },
  body: Buffer.from(JSON.stringify(value)),
});

function parsedRequest(body) {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The names of `item`'s key: those whose value is the last segment of its URL, else `id`. */
function keyNames(item, url) {
  const segment = url === undefined ? undefined : decodeURIComponent(lastSegment(url));
  const named = Object.keys(item).filter((name) => segment !== undefined && String(item[name]) === segment);
  return named.length > 0 ? named : Object.keys(item).filter((name) => /^_?id$/i.test(name));
}

const PAGE_NAMES = new Set(['page', 'offset', 'cursor', 'after', 'skip', 'start', 'page_token', 'pagetoken', 'marker']);
/** A paging value that already names the first page. */
const FIRST_PAGE = /^(?:0|1)$/;

async function createdStatusWrong(context) {
  const answer = await context.pass();
  if (context.method !== 'POST' || answer.status !== 201) return answer;
  const operation = context.document.operationAt(context.method, context.url);
  if (!operation || documents(operation, 200)) return answer;
  context.apply();
  return { ...answer, status: 200 };
}

async function bodyFault(context) {
  const answer = await context.pass();
  const value = isSuccess(answer.status) ? jsonOf(answer) : undefined;
  if (value === undefined) return answer;
  const operation = context.document.operationAt(context.method, context.url);
  const changed = faultyBody(context.fault, value, jsonSchemaOf(documentedResponse(operation, answer.status)));
  if (changed === undefined) return answer;
  context.apply();
  return withJson(answer, changed);
}

async function pagesRepeat(context) {
  if (context.method !== 'GET' || !context.url.includes('?')) return context.pass();
  const [pathname, query] = context.url.split('?');
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  let dropped = false;
  for (const [name, value] of params) {
    if (PAGE_NAMES.has(name.toLowerCase()) && !FIRST_PAGE.test(value)) dropped = true;
    else kept.append(name, value);
  }
  if (!dropped) return context.pass();
  const rest = kept.toString();
  const path = rest === '' ? pathname : `${pathname}?${rest}`;
  const faulty = await context.forward(context.method, path, context.headers, context.body);
  if (!sameAnswer(faulty, await context.pass())) context.apply();
  return faulty;
}

async function missingDeleteOk(context) {
  const answer = await context.pass();
  if (context.method !== 'DELETE' || answer.status !== 404) return answer;
  const operation = context.document.operationAt(context.method, context.url);
  if (!operation?.responses.some((response) => response.status === '404')) return answer;
  context.apply();
  return { status: 204, headers: {}, body: Buffer.alloc(0) };
}

async function notFoundAsEmpty(context) {
  const answer = await context.pass();
  if (context.method !== 'GET' || answer.status !== 404) return answer;
  const operation = context.document.operationAt(context.method, context.url);
  if (!operation?.responses.some((response) => response.status === '404')) return answer;
  context.apply();
  return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') };
}

async function locationWrong(context) {
  const answer = await context.pass();
  const location = answer.headers.location;
  if (context.method !== 'POST' || answer.status !== 201 || typeof location !== 'string') return answer;
  const collection = pathOf(context.url);
  const previous = context.state.locations.get(collection);
  context.state.locations.set(collection, location);
  if (previous === undefined || previous === location) return answer;
  context.apply();
  return { ...answer, headers: { ...answer.headers, location: previous } };
}

async function duplicateIds(context) {
  const answer = await context.pass();
  const value = jsonOf(answer);
  if (context.method !== 'POST' || answer.status !== 201 || !isObject(value)) return answer;
  const location = typeof answer.headers.location === 'string' ? answer.headers.location : undefined;
  const collection = pathOf(context.url);
  const first = context.state.firstCreates.get(collection);
  if (first === undefined) {
    const names = keyNames(value, location);
    if (names.length > 0) context.state.firstCreates.set(collection, { value, location, names });
    return answer;
  }
  const names = first.names.filter((name) => name in value && value[name] !== first.value[name]);
  if (names.length === 0) return answer;
  context.apply();
  const same = { ...value, ...Object.fromEntries(names.map((name) => [name, first.value[name]])) };
  const headers = first.location === undefined ? answer.headers : { ...answer.headers, location: first.location };
  return withJson({ ...answer, headers }, same);
}

async function patchWipes(context) {
  const { method, url, state } = context;
  const item = pathOf(url);
  if (method === 'PUT' || method === 'DELETE') state.wiped.delete(item);
  if (method === 'GET' && state.wiped.has(item)) {
    const answer = await context.pass();
    if (!isSuccess(answer.status) || !isObject(jsonOf(answer))) return answer;
    context.apply();
    return withJson(answer, state.wiped.get(item));
  }
  const answer = await context.pass();
  const sent = parsedRequest(context.body);
  const value = jsonOf(answer);
  if (method !== 'PATCH' || !isSuccess(answer.status) || !isObject(sent) || !isObject(value)) return answer;
  const kept = new Set([...Object.keys(sent), ...keyNames(value, url)]);
  const wiped = Object.fromEntries(Object.entries(value).filter(([name]) => kept.has(name)));
  if (Object.keys(wiped).length === Object.keys(value).length) return answer;
  context.apply();
  state.wiped.set(item, wiped);
  return withJson(answer, wiped);
}

async function headerDropped(context) {
  const answer = await context.pass();
  if (!isSuccess(answer.status)) return answer;
  const response = documentedResponse(context.document.operationAt(context.method, context.url), answer.status);
  const required = [...(response?.headers ?? [])]
    .filter(([, header]) => header.required)
    .map(([name]) => name.toLowerCase());
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) => !required.includes(name.toLowerCase())),
  );
  if (Object.keys(headers).length === Object.keys(answer.headers).length) return answer;
  context.apply();
  return { ...answer, headers };
}

async function errorShapeWrong(context) {
  const answer = await context.pass();
  if (answer.status < 400 || answer.status >= 500 || jsonOf(answer) === undefined) return answer;
  const response = documentedResponse(context.document.operationAt(context.method, context.url), answer.status);
  const stray = strayErrorBody(jsonSchemaOf(response), `status ${answer.status}`);
  if (stray === undefined) return answer;
  context.apply();
  return withJson(answer, stray);
}

/** The handlers by fault name; each takes { fault, method, url, headers, body, pass, forward, state, document, apply }. */
export const ANSWER_FAULTS = {
  'created-status-wrong': createdStatusWrong,
  ...Object.fromEntries(BODY_FAULTS.map((fault) => [fault, bodyFault])),
  'pages-repeat': pagesRepeat,
  'missing-delete-ok': missingDeleteOk,
  'not-found-as-empty-200': notFoundAsEmpty,
  'location-wrong': locationWrong,
  'duplicate-ids': duplicateIds,
  'patch-wipes': patchWipes,
  'header-dropped': headerDropped,
  'error-shape-wrong': errorShapeWrong,
};

/** A fresh state for the handlers that remember earlier exchanges. */
export const answerFaultState = () => ({ locations: new Map(), firstCreates: new Map(), wiped: new Map() });
