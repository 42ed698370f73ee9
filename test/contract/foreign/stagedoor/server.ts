// A reference server for the Stagedoor Ticketing API, written from its document alone
// (test/fixtures/foreign/stagedoor-tickets.yaml) on plain node:http, state in memory, validating
// strictly as a careful real server would. It runs correct (a variant) or with exactly one fault.
import { bearerToken, decodeSegment, listen, type Incoming, type Listening, type Reply } from '../http-kit.js';
import { getPerformance, getVenue, listVenues, searchPerformances } from './catalogue.js';
import { Stagedoor } from './context.js';
import { STAGEDOOR_FAULTS, type StagedoorFault } from './faults.js';
import { cancelReservation, createReservation, getReservation, payReservation } from './reservations.js';
import { STAGEDOOR_VARIANTS } from './variants.js';

type Operation =
  | 'listVenues'
  | 'getVenue'
  | 'searchPerformances'
  | 'getPerformance'
  | 'createReservation'
  | 'getReservation'
  | 'cancelReservation'
  | 'payReservation';

const ROUTES: readonly { pattern: RegExp; methods: Readonly<Record<string, Operation>> }[] = [
  { pattern: /^\/venues$/, methods: { GET: 'listVenues' } },
  { pattern: /^\/venues\/([^/]+)$/, methods: { GET: 'getVenue' } },
  { pattern: /^\/performances$/, methods: { GET: 'searchPerformances' } },
  { pattern: /^\/performances\/([^/]+)$/, methods: { GET: 'getPerformance' } },
  { pattern: /^\/reservations$/, methods: { POST: 'createReservation' } },
  { pattern: /^\/reservations\/([^/]+)$/, methods: { GET: 'getReservation', DELETE: 'cancelReservation' } },
  { pattern: /^\/reservations\/([^/]+)\/payment$/, methods: { POST: 'payReservation' } },
];

export const STAGEDOOR_BASE_PATH = '/v2';

async function handle(api: Stagedoor, request: Incoming): Promise<Reply> {
  const route = ROUTES.find((candidate) => candidate.pattern.test(request.path));
  if (!route) return api.problem(404, `Nothing at ${request.path}`);
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const operation = route.methods[method];
  if (!operation) {
    const allow = Object.keys(route.methods).join(', ');
    return api.problem(405, `${request.method} is not allowed here; use ${allow}`, { allow });
  }
  const refusal = authenticate(api, operation, request.headers.authorization);
  if (refusal) return refusal;
  const id = decodeSegment(route.pattern.exec(request.path)?.[1] ?? '');
  return dispatch(api, operation, request, id);
}

function dispatch(api: Stagedoor, operation: Operation, request: Incoming, id: string): Reply | Promise<Reply> {
  switch (operation) {
    case 'listVenues':
      return listVenues(api, request);
    case 'getVenue':
      return getVenue(api, id);
    case 'searchPerformances':
      return searchPerformances(api, request);
    case 'getPerformance':
      return getPerformance(api, id);
    case 'createReservation':
      return createReservation(api, request);
    case 'getReservation':
      return getReservation(api, id);
    case 'cancelReservation':
      return cancelReservation(api, id);
    case 'payReservation':
      return payReservation(api, request, id);
  }
}

const UNPROTECTED: Partial<Record<StagedoorFault, Operation>> = {
  'performance-read-unprotected': 'getPerformance',
  'payment-unprotected': 'payReservation',
};

/** The 401 (or, under a fault, 403) for a request without a valid token; undefined when it may pass. */
function authenticate(api: Stagedoor, operation: Operation, header: string | undefined): Reply | undefined {
  if (api.fault !== undefined && UNPROTECTED[api.fault] === operation) return undefined;
  const token = bearerToken(header, { schemeCaseSensitive: api.on('bearer-case-sensitive') });
  if (token === api.apiKey) return undefined;
  if (token !== undefined && operation === 'createReservation' && api.on('create-accepts-any-token')) return undefined;
  if (api.on('missing-token-403')) return api.problem(403, 'A valid access token is required');
  const error = header === undefined ? '' : ', error="invalid_token"';
  const challenge: Record<string, string> = api.on('no-www-authenticate')
    ? {}
    : { 'www-authenticate': `Bearer realm="stagedoor"${error}` };
  return api.problem(401, 'A valid access token is required', challenge);
}

/** Starts a Stagedoor deployment on a loopback port: the reference, a named variant, or one fault. */
export async function startStagedoor(
  options: { fault?: StagedoorFault; variant?: string; apiKey?: string } = {},
): Promise<Listening> {
  const { fault, variant = 'reference', apiKey = 'stagedoor-token' } = options;
  if (fault !== undefined && !STAGEDOOR_FAULTS.some((known) => known.name === fault))
    throw new Error(`Unknown Stagedoor fault ${fault}`);
  const choices = STAGEDOOR_VARIANTS[variant];
  if (!choices) throw new Error(`Unknown Stagedoor variant ${variant}`);
  const api = new Stagedoor(apiKey, fault, choices);
  return listen({
    basePath: STAGEDOOR_BASE_PATH,
    handle: (request) => handle(api, request),
    crash: (thrown) => ({
      status: 500,
      body: JSON.stringify({
        type: 'https://problems.stagedoor.example/internal-server-error',
        title: 'Internal server error',
        status: 500,
        detail: thrown instanceof Error ? thrown.message : 'Unexpected failure',
      }),
      contentType: 'application/problem+json',
    }),
    outside: (path) => api.problem(404, `Nothing at ${path}`),
  });
}
