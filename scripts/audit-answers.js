// Calls every documented operation of `kennel serve DOC` once with a valid request (and reads back
// every Location a create answers with), then judges each answer against the document: the status
// is documented, a JSON body is valid against its schema, a documented required header is there.
// Answers flagged in Kennel-Violations (a documented example that breaks its schema), 404s for the
// made-up ids of path parameters and 501s of operations that document no answer are counted apart. Usage (after npm run build): node scripts/audit-answers.js DOC... [--verbose]
// Exit code: 0 when every answer is valid or flagged, 1 otherwise, 2 when a document cannot be served.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = (file) => import(new URL(`../dist/${file}`, import.meta.url).href);
const { startMock } = await dist('index.js');
const { SchemaValidators } = await dist('openapi/validators.js');
const { validValue } = await dist('openapi/generate.js');
const { responseFor, jsonMediaType } = await dist('openapi/operations.js');
const { valueAt } = await dist('openapi/json-pointer.js');
const { Random } = await dist('core/random.js');
const { acceptFor, parameterText } = await dist('contract/prepare/request-builder.js');
const { coerceParameter } = await dist('openapi/parameter-value.js');
const { styledPathValue } = await dist('openapi/parameter-style.js');

const KEY = 'audit-key';

/** A value for a request schema: deterministic, readOnly properties left out. */
function requestValue(schema, document) {
  return validValue(schema, { random: new Random(7), tag: 'audit', style: 'sample', direction: 'request', document });
}

function credentials(operation, headers, query) {
  const { requirements, schemes } = operation.security;
  for (const name of Object.keys(requirements[0] ?? {})) {
    const scheme = schemes[name];
    if (!scheme) continue;
    if (scheme.type === 'apiKey' && scheme.in === 'query') query[scheme.name] = KEY;
    else if (scheme.type === 'apiKey' && scheme.in === 'cookie') headers.cookie = `${scheme.name}=${KEY}`;
    else if (scheme.type === 'apiKey') headers[scheme.name.toLowerCase()] = KEY;
    else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic')
      headers.authorization = `Basic ${Buffer.from(`audit:${KEY}`).toString('base64')}`;
    else headers.authorization = `Bearer ${KEY}`;
  }
}

function encodeLiteral(segment) {
  try {
    return encodeURIComponent(decodeURIComponent(segment));
  } catch {
    return encodeURIComponent(segment);
  }
}

/** A path parameter's value as its style writes it (`.5`, `;cell=5`, `x,1,y,2`). */
function pathText(parameter, value) {
  const spread = Array.isArray(value)
    ? value.map(parameterText)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([key, field]) => [key, parameterText(field)]))
      : parameterText(value);
  return styledPathValue(parameter.name, parameter.style, parameter.explode, spread);
}

/** The request a client following the document sends: sample path, query, header values and body. */
function requestFor(spec, operation, base) {
  const schemaOf = (parameter) => parameter.schema && valueAt(spec.dereferenced, parameter.schema.pointer);
  const headers = { accept: acceptFor(operation) };
  const query = {};
  const cookies = [];
  const [template, keyQuery = ''] = operation.path.split(/\?(.*)/s);
  // Literal text percent-encoded as a client would send it (`/a b` → `/a%20b`), templates kept.
  let path = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? part : part.split('/').map(encodeLiteral).join('/')))
    .join('');
  for (const [name, value] of new URLSearchParams(keyQuery)) query[name] = value;
  for (const parameter of operation.parameters) {
    const value = requestValue(schemaOf(parameter), spec.dereferenced);
    const text = parameterText(value);
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, pathText(parameter, value));
    else if (!parameter.required) continue;
    else if (parameter.in === 'query') query[parameter.name] = text;
    else if (
      parameter.in === 'header' &&
      !['accept', 'content-type', 'authorization'].includes(parameter.name.toLowerCase())
    )
      headers[parameter.name.toLowerCase()] = text;
    else if (parameter.in === 'cookie') cookies.push(`${parameter.name}=${encodeURIComponent(text)}`);
  }
  credentials(operation, headers, query);
  if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join('; ');
  const content = operation.requestBody?.content ?? [];
  const media = jsonMediaType(content);
  const form = content.find((candidate) =>
    /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(candidate.mediaType),
  );
  let body;
  if (media) {
    headers['content-type'] = media.mediaType.includes('*') ? 'application/json' : media.mediaType;
    body = JSON.stringify(
      requestValue(media.schema && valueAt(spec.dereferenced, media.schema.pointer), spec.dereferenced),
    );
  } else if (form) {
    const value = requestValue(form.schema && valueAt(spec.dereferenced, form.schema.pointer), spec.dereferenced) ?? {};
    const fields = Object.entries(value).map(([name, item]) => [name, parameterText(item)]);
    if (/^multipart/i.test(form.mediaType)) {
      body = new FormData();
      for (const [name, text] of fields) body.append(name, text);
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(fields).toString();
    }
  }
  const search = new URLSearchParams(query).toString();
  return { method: operation.method.toUpperCase(), url: `${base}${path}${search ? `?${search}` : ''}`, headers, body };
}

/** What a documented header's text breaks in its schema (empty when it conforms). */
function headerProblems(validators, name, header, text) {
  if (!header.schema) return [];
  const coerced = coerceParameter(text, header.schema.schema, false);
  if (!coerced.ok) return [`header ${name} ${coerced.message}`];
  return validators
    .at(
      header.schema.pointer,
      'response',
    )(coerced.value)
    .slice(0, 3)
    .map((issue) => `header ${name}${issue.pointer} ${issue.message} (got ${JSON.stringify(text)})`);
}

/** Whether `type` (a Content-Type) is one of the documented media types, wildcards included. */
function documentedType(content, type) {
  const essence = type.split(';')[0].trim().toLowerCase();
  return content.some((media) => {
    const [kind, sub] = media.mediaType.split(';')[0].trim().toLowerCase().split('/');
    const [gotKind, gotSub] = essence.split('/');
    return (kind === '*' || kind === gotKind) && (sub === '*' || sub === gotSub);
  });
}

/** What is wrong with one answer, as sentences (empty when it conforms). */
function judge(spec, validators, operation, response, text) {
  const problems = [];
  const documented = responseFor(operation, response.status);
  if (!documented) return [`status ${response.status} is not documented`];
  for (const [name, header] of documented.headers) {
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`required header ${name} is missing`);
    } else problems.push(...headerProblems(validators, name, header, value));
  }
  const type = response.headers.get('content-type') ?? '';
  if (text && documented.content.length > 0 && !documentedType(documented.content, type))
    problems.push(`Content-Type ${type || '(none)'} is not documented for ${documented.status}`);
  const media = jsonMediaType(documented.content);
  if (!media?.schema || !/json/i.test(type) || operation.method === 'head') return problems;
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return [...problems, `body is not JSON: ${error.message}`];
  }
  const validate = validators.at(media.schema.pointer, 'response');
  for (const issue of validate(value).slice(0, 5)) problems.push(`body ${issue.pointer || '(root)'} ${issue.message}`);
  return problems;
}

/** The `Prefer` values that pick each documented answer: every status, every named example, a generated one. */
function preferences(operation) {
  const wanted = [];
  for (const response of operation.responses) {
    // A 101 is a 501 by design: no mock switches protocols (docs/mock-behaviour.md).
    if (!/^[2-5]\d\d$/.test(response.status)) continue;
    wanted.push({ prefer: `code=${response.status}`, status: Number(response.status) });
    for (const media of response.content)
      for (const name of media.examples.keys())
        wanted.push({ prefer: `code=${response.status}, example=${name}`, status: Number(response.status) });
  }
  wanted.push({ prefer: 'dynamic=true' });
  return wanted;
}

/** Serves `file`, calls each operation, and returns what every answer broke. */
export async function auditAnswers(file, options = {}) {
  const running = await startMock({ specPath: file, port: 0, apiKeys: [KEY], world: false, logLevel: 'silent' });
  const { spec } = running;
  const validators = new SchemaValidators(spec.document);
  const findings = [];
  let exchanges = 0;
  let flagged = 0;
  let unknownIds = 0;
  let unspecified = 0;
  let taken = 0;
  let stateDecided = 0;
  let listedNotFound = 0;
  /** A create's Location must lead to a read the document describes. */
  const readBack = async (operation, location, base) => {
    const target = new URL(location, base);
    const read = spec.operations.find((candidate) => candidate.method === 'get' && matches(spec, candidate, target));
    if (!read) return; // nothing documented reads it back
    const request = requestFor(spec, read, base);
    request.url = `${target.origin}${target.pathname}${new URL(request.url).search}`;
    const answer = await send(read, request);
    if (answer.status >= 400)
      findings.push({
        operation: read.id,
        status: answer.status,
        problem: `reading back Location ${location} (from ${operation.id}) failed`,
        url: location,
      });
  };
  const send = async (operation, request) => {
    let response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
      });
    } catch (error) {
      findings.push({
        operation: operation.id,
        status: 0,
        problem: `no answer: ${error.cause?.message ?? error.message}`,
        url: request.url,
      });
      return { status: 0, headers: new Headers(), text: '' };
    }
    const text = await response.text();
    exchanges += 1;
    const problems = judge(spec, validators, operation, response, text);
    if (response.headers.has('kennel-violations')) flagged += 1;
    else if (response.status === 404 && !responseFor(operation, 404) && hasPathParameters(operation))
      unknownIds += 1; // a made-up id the mock does not hold: not found is the truthful answer
    else if (response.status === 501 && !operation.responses.some((documented) => /^2|default/.test(documented.status)))
      unspecified += 1; // the document shows no answer to give
    else if (response.status === 409 && !responseFor(operation, 409) && operation.method === 'post')
      taken += 1; // the audit sends the same body twice: a key the client chose is taken the second time
    else
      for (const problem of problems)
        findings.push({
          operation: operation.id,
          status: response.status,
          problem,
          url: request.url,
          prefer: request.headers.prefer,
        });
    return { status: response.status, headers: response.headers, text };
  };
  try {
    for (const operation of spec.operations) {
      const request = requestFor(spec, operation, running.url);
      const response = await send(operation, request);
      if (response.status === 400)
        findings.push({
          operation: operation.id,
          status: 400,
          problem: `a request built from the document was refused: ${response.text.slice(0, 160)}`,
          url: request.url,
        });
      const location = response.status < 300 && response.headers.get('location');
      if (location) await readBack(operation, location, running.url);
    }
    // Every documented answer asked for by Prefer. A success still depends on the state (a made-up
    // id is not found, a key sent twice is taken, a made-up reference names nothing): counted apart.
    for (const operation of spec.operations)
      for (const { prefer, status } of preferences(operation)) {
        const request = requestFor(spec, operation, running.url);
        request.headers.prefer = prefer;
        const response = await send(operation, request);
        if (status === undefined || response.status === status || response.status === 0) continue;
        if (status < 300 && [404, 409, 422].includes(response.status)) stateDecided += 1;
        else
          findings.push({
            operation: operation.id,
            status: response.status,
            problem: `Prefer: ${prefer} answered ${response.status}: ${response.text.slice(0, 160)}`,
            url: request.url,
            prefer,
          });
      }
    // The lists again, now that they hold what the writes stored; then each listed item read by its
    // key, so that seeded and stored items are judged by the read's schema too.
    const listed = new Map();
    for (const operation of spec.operations)
      if (operation.method === 'get' && !hasPathParameters(operation)) {
        const answer = await send(operation, requestFor(spec, operation, running.url));
        if (answer.status === 200) listed.set(operation.path, itemsOf(answer.text));
      }
    for (const read of spec.operations) {
      const [, parent, name] = /^(.*)\/\{([^}/]+)\}$/.exec(read.path) ?? [];
      if (read.method !== 'get' || !listed.has(parent)) continue;
      for (const item of listed.get(parent).slice(0, 3)) {
        const key = keyOf(item, name);
        if (key === undefined) continue;
        const request = requestFor(spec, read, running.url);
        const url = new URL(request.url);
        url.pathname = `${spec.basePath}${parent}/${encodeURIComponent(String(key))}`;
        request.url = url.href;
        const answer = await send(read, request);
        if (answer.status === 404) listedNotFound += 1;
      }
    }
  } finally {
    await running.close();
  }
  if (options.verbose)
    for (const finding of findings)
      console.log(
        `  ${finding.operation} ${finding.status}: ${finding.problem}  (${finding.url}${finding.prefer ? `, Prefer: ${finding.prefer}` : ''})`,
      );
  const { length: operations } = spec.operations;
  const counts = { flagged, unknownIds, unspecified, taken, stateDecided, listedNotFound };
  return { file, operations, exchanges, ...counts, findings };
}

/** The items of a list answer: the array itself, or the first array of objects in its envelope. */
function itemsOf(text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const isItem = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (Array.isArray(body)) return body.filter(isItem);
  if (!isItem(body)) return [];
  const list = Object.values(body).find((value) => Array.isArray(value) && value.some(isItem));
  return (list ?? []).filter(isItem);
}

/** The key an item is read by: the property named like the path parameter, else its id. */
function keyOf(item, parameter) {
  const squash = (text) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const names = Object.keys(item).filter((name) => ['string', 'number'].includes(typeof item[name]));
  const exact = names.find((name) => squash(name) === squash(parameter));
  const id = names.find((name) => squash(name) === 'id');
  return item[exact ?? id];
}

function hasPathParameters(operation) {
  return operation.parameters.some((parameter) => parameter.in === 'path');
}

function matches(spec, operation, url) {
  const pattern = operation.path
    .split('?')[0]
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${spec.basePath}${pattern}/?$`).test(decodeURIComponent(url.pathname));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const verbose = process.argv.includes('--verbose');
  let worst = 0;
  for (const file of process.argv.slice(2).filter((arg) => arg !== '--verbose')) {
    try {
      const result = await auditAnswers(file, { verbose });
      const invalid = result.findings.length;
      worst = Math.max(worst, invalid > 0 ? 1 : 0);
      console.log(
        `${basename(file)}: ${result.operations} operations, ${result.exchanges} answers, ${invalid} invalid, ${result.flagged} flagged (bad examples), ${result.unknownIds} 404 for made-up ids, ${result.unspecified} 501 unspecified, ${result.taken} 409 key taken, ${result.stateDecided} Prefer 2xx decided by state, ${result.listedNotFound} listed but not found`,
      );
    } catch (error) {
      worst = 2;
      console.log(`${basename(file)}: not served: ${error.message.split('\n')[0]}`);
    }
  }
  process.exitCode = worst;
}
