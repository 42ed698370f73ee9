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
const { acceptFor, parameterText } = await dist('contract/request-builder.js');
const { responseValidatorView } = await dist('mock/request-view.js');

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

/** The request a client following the document sends: sample path, query, header values and body. */
function requestFor(spec, operation, base) {
  const schemaOf = (parameter) => parameter.schema && valueAt(spec.dereferenced, parameter.schema.pointer);
  const headers = { accept: acceptFor(operation) };
  const query = {};
  const [template, keyQuery = ''] = operation.path.split(/\?(.*)/s);
  // Literal text percent-encoded as a client would send it (`/a b` → `/a%20b`), templates kept.
  let path = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? part : part.split('/').map(encodeLiteral).join('/')))
    .join('');
  for (const [name, value] of new URLSearchParams(keyQuery)) query[name] = value;
  for (const parameter of operation.parameters) {
    const text = parameterText(requestValue(schemaOf(parameter), spec.dereferenced));
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    else if (!parameter.required) continue;
    else if (parameter.in === 'query') query[parameter.name] = text;
    else if (
      parameter.in === 'header' &&
      !['accept', 'content-type', 'authorization'].includes(parameter.name.toLowerCase())
    )
      headers[parameter.name.toLowerCase()] = text;
  }
  credentials(operation, headers, query);
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

/** What is wrong with one answer, as sentences (empty when it conforms). */
function judge(spec, validators, operation, response, text) {
  const problems = [];
  const documented = responseFor(operation, response.status);
  if (!documented) return [`status ${response.status} is not documented`];
  for (const [name, header] of documented.headers)
    if (header.required && !response.headers.has(name)) problems.push(`required header ${name} is missing`);
  const media = jsonMediaType(documented.content);
  const type = response.headers.get('content-type') ?? '';
  if (!media?.schema || !/json/i.test(type) || operation.method === 'head') return problems;
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return [...problems, `body is not JSON: ${error.message}`];
  }
  const schema = valueAt(spec.dereferenced, media.schema.pointer);
  const validate = responseValidatorView(validators.at(media.schema.pointer), schema);
  for (const issue of validate(value).slice(0, 5)) problems.push(`body ${issue.pointer || '(root)'} ${issue.message}`);
  return problems;
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
      return { status: 0, headers: new Headers() };
    }
    const text = await response.text();
    exchanges += 1;
    if (response.headers.has('kennel-violations')) flagged += 1;
    else if (response.status === 404 && operation.parameters.some((parameter) => parameter.in === 'path'))
      unknownIds += 1; // a made-up id the mock does not hold: not found is the truthful answer
    else if (response.status === 501 && !operation.responses.some((documented) => /^2|default/.test(documented.status)))
      unspecified += 1; // the document shows no answer to give
    else
      for (const problem of judge(spec, validators, operation, response, text))
        findings.push({ operation: operation.id, status: response.status, problem, url: request.url });
    return response;
  };
  try {
    for (const operation of spec.operations) {
      const response = await send(operation, requestFor(spec, operation, running.url));
      const location = response.status < 300 && response.headers.get('location');
      if (!location) continue;
      // A create's Location must lead to a read the document describes.
      const target = new URL(location, running.url);
      const read = spec.operations.find((candidate) => candidate.method === 'get' && matches(spec, candidate, target));
      if (!read) continue; // nothing documented reads it back
      const readBack = requestFor(spec, read, running.url);
      readBack.url = `${target.origin}${target.pathname}${new URL(readBack.url).search}`;
      const answer = await send(read, readBack);
      if (answer.status >= 400)
        findings.push({
          operation: read.id,
          status: answer.status,
          problem: `reading back Location ${location} failed`,
          url: location,
        });
    }
  } finally {
    await running.close();
  }
  if (options.verbose)
    for (const finding of findings)
      console.log(`  ${finding.operation} ${finding.status}: ${finding.problem}  (${finding.url})`);
  return { file, operations: spec.operations.length, exchanges, flagged, unknownIds, unspecified, findings };
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
        `${basename(file)}: ${result.operations} operations, ${result.exchanges} answers, ${invalid} invalid, ${result.flagged} flagged (bad examples), ${result.unknownIds} 404 for made-up ids, ${result.unspecified} 501 unspecified`,
      );
    } catch (error) {
      worst = 2;
      console.log(`${basename(file)}: not served: ${error.message.split('\n')[0]}`);
    }
  }
  process.exitCode = worst;
}
