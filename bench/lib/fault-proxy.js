// A proxy that puts one generic fault between kennel check and a correct deployment of any
// document: the faults real implementations ship that need no knowledge of the API (a 500 for a
// missing item, writes answered but not kept, a limit ignored, invalid input accepted…), and
// those the document's own words make faults (bench/lib/fault-answers.js). Each fault counts how
// often it changed what a client sees on a documented operation, so a sweep can tell "missed"
// from "never triggered". Plain node:http; bodies are buffered up to MAX_BODY.
import { createServer, request as httpRequest, Agent } from 'node:http';
import { ANSWER_FAULTS, answerFaultState, isSuccess, JSON_TYPE, jsonOf, sameAnswer } from './fault-answers.js';
import { FAULTS } from './fault-catalogue.js';
import { documentedResponse } from './fault-document.js';

export { FAULTS };

const MAX_BODY = 8 * 1024 * 1024;
/** The exchanges a fault changed that the proxy names (method and URL), for the sweep's report. */
const MAX_WHERE = 20;
const LIMIT_NAMES = new Set([
  'limit',
  'per_page',
  'perpage',
  'page_size',
  'pagesize',
  'size',
  'max',
  'top',
  'count',
  'first',
  'maxresults',
  'max_results',
]);
const PAGE_NAMES = new Set(['page', 'offset', 'cursor', 'after', 'skip', 'start', 'page_token', 'pagetoken', 'marker']);
const ANY_TEXT = /^(?:\*\/\*|text\/\*|text\/html)(?:$|[;\s])/i;

function readBody(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    stream.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) stream.destroy(new Error(`body over ${MAX_BODY} bytes`));
      else chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

const isList = (value) =>
  Array.isArray(value) ||
  (value !== null && typeof value === 'object' && Object.values(value).some((member) => Array.isArray(member)));

/**
 * The collection URL of an item URL and what names the item in it: `/pets/7` → `/pets` and `7`;
 * an item read by query (`/animal?uid=7`) → `/animal` and `uid=7`.
 */
function splitItem(url) {
  const [pathname, query] = url.split('?');
  if (query) return { parent: pathname, last: query };
  const cut = pathname.lastIndexOf('/');
  return { parent: pathname.slice(0, cut), last: pathname.slice(cut + 1) };
}

const CREDENTIAL_HEADER = /^(?:authorization|cookie|x-[\w-]*(?:key|token|auth)[\w-]*|api[-_]?key|[\w-]*api[-_]?key)$/i;

/**
 * A header carrying `key` as the deployment takes it: the key itself (an API-key header), after a
 * Bearer or Token scheme, or as the password of Basic credentials. The checker's near misses
 * (another case, a character more or less, the key under the wrong scheme) are not.
 */
function realCredential(name, value, key) {
  if (typeof value !== 'string' || key === undefined) return false;
  if (name.toLowerCase() !== 'authorization') return value === key || value.endsWith(`=${key}`);
  const [scheme = '', token = ''] = value.trim().split(/\s+/);
  if (/^(?:bearer|token)$/i.test(scheme)) return token === key;
  if (/^basic$/i.test(scheme)) return Buffer.from(token, 'base64').toString('utf8').endsWith(`:${key}`);
  return false;
}

/** The credentials to try for a client holding `key`: those seen first, then the usual forms. */
function heldCredentials(seen, key) {
  const usual =
    key === undefined
      ? []
      : [
          { authorization: `Bearer ${key}` },
          { authorization: `Basic ${Buffer.from(`kennel:${key}`).toString('base64')}` },
          { 'x-api-key': key },
          { 'api-key': key },
        ];
  return seen === undefined ? usual : [seen, ...usual];
}

const NO_DOCUMENT = { operationAt: () => undefined };

/**
 * Starts a proxy to `upstream` (a base URL; its path is the proxy's too) whose clients hold `key` with `fault` (a key of FAULTS, or undefined for none).
 * `document` (bench/lib/fault-document.js) tells where the document makes a fault one; without it
 * the faults that need it never apply. Resolves to { url, applied(), appliedTo(), close() }.
 */
export async function startFaultProxy(upstream, fault, key, document = NO_DOCUMENT) {
  if (fault !== undefined && !(fault in FAULTS)) throw new Error(`no fault named ${fault}`);
  const base = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let applied = 0;
  const where = [];
  const state = {
    snapshots: new Map(),
    kept: new Map(),
    lastItem: new Map(),
    credentials: undefined,
    ...answerFaultState(),
  };

  const forward = (method, url, headers, body) =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        { host: base.hostname, port: base.port, path: url, method, headers: { ...headers, host: base.host }, agent },
        (response) => {
          readBody(response).then(
            (buffer) => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: buffer }),
            reject,
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body.length > 0 ? body : undefined);
    });

  const withoutBody = (headers) => {
    const copy = { ...headers };
    delete copy['content-length'];
    delete copy['content-type'];
    delete copy['transfer-encoding'];
    return copy;
  };

  const json = (status, value, headers = {}) => ({
    status,
    headers: { ...headers, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(value)),
  });

  async function handle(method, url, headers, body) {
    const pass = () => forward(method, url, headers, body);
    // A change to an exchange no documented operation names (the run's probe of the base URL) is
    // not an occasion the checks could judge: it does not make the fault applicable.
    const apply = () => {
      if (document !== NO_DOCUMENT && document.operationAt(method, url) === undefined) return;
      applied += 1;
      if (where.length < MAX_WHERE) where.push(`${method} ${url}`);
    };
    switch (fault) {
      case 'server-error-for-missing': {
        const answer = await pass();
        if (answer.status !== 404) return answer;
        apply();
        return json(500, { error: 'internal error' });
      }
      case 'html-content-type': {
        const answer = await pass();
        if (!isSuccess(answer.status) || !JSON_TYPE.test(answer.headers['content-type'] ?? '')) return answer;
        // Where the document allows any media type (`*/*`, `text/*`), text/html is not wrong.
        const response = documentedResponse(document.operationAt(method, url), answer.status);
        if (response?.content.some((media) => ANY_TEXT.test(media.mediaType))) return answer;
        apply();
        return { ...answer, headers: { ...answer.headers, 'content-type': 'text/html; charset=utf-8' } };
      }
      case 'updates-not-kept': {
        if (method === 'GET' && state.snapshots.has(url)) {
          const snapshot = state.snapshots.get(url);
          if (!sameAnswer(snapshot, await pass())) apply();
          return snapshot;
        }
        if (method !== 'PUT' && method !== 'PATCH') return pass();
        const before = await forward('GET', url, withoutBody(headers), Buffer.alloc(0));
        const answer = await pass();
        if (isSuccess(answer.status) && isSuccess(before.status) && !state.snapshots.has(url))
          state.snapshots.set(url, before);
        return answer;
      }
      case 'delete-not-kept': {
        if (method !== 'DELETE') return pass();
        const before = await forward('GET', url, withoutBody(headers), Buffer.alloc(0));
        if (!isSuccess(before.status)) return pass();
        apply();
        return { status: 204, headers: {}, body: Buffer.alloc(0) };
      }
      case 'limit-ignored':
      case 'filters-ignored': {
        if (method !== 'GET' || !url.includes('?')) return pass();
        const [pathname, query] = url.split('?');
        const params = new URLSearchParams(query);
        const kept = new URLSearchParams();
        for (const [name, value] of params) {
          const lower = name.toLowerCase();
          const drop =
            fault === 'limit-ignored' ? LIMIT_NAMES.has(lower) : !LIMIT_NAMES.has(lower) && !PAGE_NAMES.has(lower);
          if (!drop) kept.append(name, value);
        }
        if ([...kept].length === [...params].length) return pass();
        const rest = kept.toString();
        const faulty = await forward(method, rest === '' ? pathname : `${pathname}?${rest}`, headers, body);
        if (!sameAnswer(faulty, await pass())) apply();
        return faulty;
      }
      case 'invalid-accepted': {
        const answer = await pass();
        if (!['POST', 'PUT', 'PATCH'].includes(method) || (answer.status !== 400 && answer.status !== 422))
          return answer;
        let sent;
        try {
          sent = JSON.parse(body.toString('utf8'));
        } catch {
          sent = {};
        }
        apply();
        return json(method === 'POST' ? 201 : 200, sent);
      }
      case 'auth-ignored': {
        const credentials = Object.entries(headers).filter(([name]) => CREDENTIAL_HEADER.test(name));
        if (credentials.length > 0) {
          if (credentials.every(([name, value]) => realCredential(name, value, key)))
            state.credentials = Object.fromEntries(credentials);
          return pass();
        }
        const refused = await pass();
        if (refused.status !== 401 && refused.status !== 403) return refused;
        // A deployment that needs no credentials: what the correct one answers to a client holding them.
        for (const held of heldCredentials(state.credentials, key)) {
          const answer = await forward(method, url, { ...headers, ...held }, body);
          if (answer.status !== 401 && answer.status !== 403) {
            apply();
            return answer;
          }
        }
        return refused;
      }
      case 'create-forgotten': {
        const answer = await pass();
        const location = answer.headers.location;
        if (method !== 'POST' || answer.status !== 201 || typeof location !== 'string') return answer;
        const target = new URL(location, base);
        if (target.host !== base.host) return answer;
        const removed = await forward(
          'DELETE',
          `${target.pathname}${target.search}`,
          withoutBody(headers),
          Buffer.alloc(0),
        );
        if (isSuccess(removed.status)) apply();
        return answer;
      }
      case 'stale-lists': {
        if (method !== 'GET') return pass();
        const answer = await pass();
        const kept = state.kept.get(url);
        if (kept) {
          if (!sameAnswer(kept, answer)) apply();
          return kept;
        }
        const collection = !/\}\/?$/.test(document.operationAt(method, url)?.path ?? '');
        if (collection && isSuccess(answer.status) && isList(jsonOf(answer))) state.kept.set(url, answer);
        return answer;
      }
      case 'wrong-item': {
        const answer = await pass();
        const value = jsonOf(answer);
        if (method !== 'GET' || !isSuccess(answer.status) || value === undefined || isList(value)) return answer;
        if (value === null || typeof value !== 'object') return answer;
        // An item is read at a path ending in its key, or by a query; other fixed paths are not items.
        const itemPath = /\}\/?$/.test(document.operationAt(method, url)?.path ?? '}');
        if (!itemPath && !url.includes('?')) return answer;
        const { parent, last } = splitItem(url);
        const previous = state.lastItem.get(parent);
        state.lastItem.set(parent, { last, answer });
        if (!previous || previous.last === last) return answer;
        if (!sameAnswer(previous.answer, answer)) apply();
        return previous.answer;
      }
      default: {
        if (fault in ANSWER_FAULTS)
          return ANSWER_FAULTS[fault]({ fault, method, url, headers, body, pass, forward, state, document, apply });
        return pass();
      }
    }
  }

  const server = createServer((incoming, outgoing) => {
    readBody(incoming)
      .then((body) => {
        const headers = { ...incoming.headers };
        delete headers.connection;
        delete headers['keep-alive'];
        const url = incoming.url ?? '/';
        return handle(incoming.method ?? 'GET', url, headers, body);
      })
      .then((answer) => {
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        delete headers.connection;
        delete headers['keep-alive'];
        headers['content-length'] = String(answer.body.length);
        outgoing.writeHead(answer.status, headers);
        outgoing.end(answer.body);
      })
      .catch((error) => {
        if (outgoing.headersSent) outgoing.destroy();
        else {
          outgoing.writeHead(502, { 'content-type': 'text/plain' });
          outgoing.end(`fault proxy: ${error instanceof Error ? error.message : String(error)}`);
        }
      });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    // The upstream's base path kept, so that its Location headers resolve here too.
    url: `http://127.0.0.1:${port}${base.pathname.replace(/\/$/, '')}`,
    applied: () => applied,
    appliedTo: () => [...where],
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
