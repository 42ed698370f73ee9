// A reference server for the Redocly Museum API, written from its document alone
// (test/fixtures/foreign/redocly-museum.yaml) on plain node:http, state in memory, validating
// strictly as a careful real server would. It runs correct (a variant) or with exactly one fault.
import { basicCredentials, decodeSegment, listen, type Incoming, type Listening, type Reply } from '../http-kit.js';
import { Museum } from './context.js';
import {
  createSpecialEvent,
  deleteSpecialEvent,
  getSpecialEvent,
  listSpecialEvents,
  updateSpecialEvent,
} from './events.js';
import { MUSEUM_FAULTS, type MuseumFault } from './faults.js';
import { getMuseumHours } from './hours.js';
import { buyMuseumTickets, getTicketCode } from './tickets.js';
import { MUSEUM_VARIANTS } from './variants.js';

type Operation =
  | 'getMuseumHours'
  | 'listSpecialEvents'
  | 'createSpecialEvent'
  | 'getSpecialEvent'
  | 'updateSpecialEvent'
  | 'deleteSpecialEvent'
  | 'buyMuseumTickets'
  | 'getTicketCode';

const ROUTES: readonly { pattern: RegExp; methods: Readonly<Record<string, Operation>> }[] = [
  { pattern: /^\/museum-hours$/, methods: { GET: 'getMuseumHours' } },
  { pattern: /^\/special-events$/, methods: { GET: 'listSpecialEvents', POST: 'createSpecialEvent' } },
  {
    pattern: /^\/special-events\/([^/]+)$/,
    methods: { GET: 'getSpecialEvent', PATCH: 'updateSpecialEvent', DELETE: 'deleteSpecialEvent' },
  },
  { pattern: /^\/tickets$/, methods: { POST: 'buyMuseumTickets' } },
  { pattern: /^\/tickets\/([^/]+)\/qr$/, methods: { GET: 'getTicketCode' } },
];

/** The path of the document's only server URL (https://redocly.com/_mock/docs/openapi/museum-api). */
export const MUSEUM_BASE_PATH = '/_mock/docs/openapi/museum-api';

async function handle(api: Museum, request: Incoming): Promise<Reply> {
  const route = ROUTES.find((candidate) => candidate.pattern.test(request.path));
  if (!route) return api.problem(404, `Nothing at ${request.path}`);
  const operation = route.methods[request.method === 'HEAD' ? 'GET' : request.method];
  if (!operation) {
    const allow = Object.keys(route.methods).join(', ');
    return api.problem(405, `${request.method} is not allowed here; use ${allow}`, { allow });
  }
  if (!authenticated(api, operation, request.headers.authorization)) {
    const challenge: Record<string, string> = api.on('no-basic-challenge')
      ? {}
      : { 'www-authenticate': 'Basic realm="museum", charset="UTF-8"' };
    return api.problem(401, 'Basic credentials of a museum account are required', challenge);
  }
  const id = decodeSegment(route.pattern.exec(request.path)?.[1] ?? '');
  return dispatch(api, operation, request, id);
}

function dispatch(api: Museum, operation: Operation, request: Incoming, id: string): Reply | Promise<Reply> {
  switch (operation) {
    case 'getMuseumHours':
      return getMuseumHours(api, request);
    case 'listSpecialEvents':
      return listSpecialEvents(api, request);
    case 'createSpecialEvent':
      return createSpecialEvent(api, request);
    case 'getSpecialEvent':
      return getSpecialEvent(api, id);
    case 'updateSpecialEvent':
      return updateSpecialEvent(api, request, id);
    case 'deleteSpecialEvent':
      return deleteSpecialEvent(api, id);
    case 'buyMuseumTickets':
      return buyMuseumTickets(api, request);
    case 'getTicketCode':
      return getTicketCode(api, id);
  }
}

const UNPROTECTED: Partial<Record<MuseumFault, Operation>> = {
  'delete-unauthenticated': 'deleteSpecialEvent',
  'create-event-unauthenticated': 'createSpecialEvent',
};

function authenticated(api: Museum, operation: Operation, header: string | undefined): boolean {
  if (api.fault !== undefined && UNPROTECTED[api.fault] === operation) return true;
  const sent = basicCredentials(header);
  if (!sent || sent.user !== api.credentials.user) return false;
  return sent.password === api.credentials.password || api.on('any-password');
}

/**
 * Starts a Museum deployment on a loopback port: the reference, a named variant, or one fault.
 * `credentials` is the museum account it accepts (the harness gives the one its client sends).
 */
export async function startMuseum(
  options: { fault?: MuseumFault; variant?: string; credentials?: { user: string; password: string } } = {},
): Promise<Listening> {
  const { fault, variant = 'reference', credentials = { user: 'curator', password: 'museum-secret' } } = options;
  if (fault !== undefined && !MUSEUM_FAULTS.some((known) => known.name === fault))
    throw new Error(`Unknown Museum fault ${fault}`);
  const choices = MUSEUM_VARIANTS[variant];
  if (!choices) throw new Error(`Unknown Museum variant ${variant}`);
  const api = new Museum(credentials, fault, choices);
  return listen({
    basePath: MUSEUM_BASE_PATH,
    handle: (request) => handle(api, request),
    crash: (thrown) => ({
      status: 500,
      body: JSON.stringify({
        type: 'https://museum.example/problems/internal-server-error',
        title: 'Internal server error',
        detail: thrown instanceof Error ? thrown.message : 'Unexpected failure',
      }),
      contentType: 'application/problem+json',
    }),
    outside: (path) => api.problem(404, `Nothing at ${path}`),
  });
}
