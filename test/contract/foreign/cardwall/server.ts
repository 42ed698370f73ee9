// A reference server for the Cardwall Kanban API, written from its document alone
// (test/fixtures/foreign/cardwall-kanban.yaml) on plain node:http, state in memory, validating
// strictly as a careful real server would. It runs correct (a variant) or with exactly one fault.
import { decodeSegment, listen, type Incoming, type Listening, type Reply } from '../http-kit.js';
import { archiveBoard, createBoard, deleteBoard, getBoard, listBoards, updateBoard } from './boards.js';
import { createCard, deleteCard, getCard, listCards, updateCard } from './cards.js';
import { createComment, getLabel, listComments, putLabel } from './comments.js';
import { Cardwall } from './context.js';
import { CARDWALL_FAULTS, type CardwallFault } from './faults.js';
import { CARDWALL_VARIANTS } from './variants.js';

/** The path of the document's server URL (https://api.cardwall.example/v1). */
export const CARDWALL_BASE_PATH = '/v1';

type Handler = (api: Cardwall, request: Incoming, segments: string[]) => Reply | Promise<Reply>;

const ROUTES: readonly { pattern: RegExp; methods: Readonly<Record<string, [string, Handler]>> }[] = [
  {
    pattern: /^\/boards$/,
    methods: {
      GET: ['listBoards', (api, r) => listBoards(api, r)],
      POST: ['createBoard', (api, r) => createBoard(api, r)],
    },
  },
  {
    pattern: /^\/boards\/([^/]+)$/,
    methods: {
      GET: ['getBoard', (api, r, [board]) => getBoard(api, r, board!)],
      PATCH: ['updateBoard', (api, r, [board]) => updateBoard(api, r, board!)],
      DELETE: ['deleteBoard', (api, _r, [board]) => deleteBoard(api, board!)],
    },
  },
  {
    pattern: /^\/boards\/([^/]+)\/archive$/,
    methods: { POST: ['archiveBoard', (api, _r, [board]) => archiveBoard(api, board!)] },
  },
  {
    pattern: /^\/boards\/([^/]+)\/cards$/,
    methods: {
      GET: ['listCards', (api, r, [board]) => listCards(api, r, board!)],
      POST: ['createCard', (api, r, [board]) => createCard(api, r, board!)],
    },
  },
  {
    pattern: /^\/boards\/([^/]+)\/cards\/([^/]+)$/,
    methods: {
      GET: ['getCard', (api, r, [board, card]) => getCard(api, r, { board: board!, card: card! })],
      PATCH: ['updateCard', (api, r, [board, card]) => updateCard(api, r, { board: board!, card: card! })],
      DELETE: ['deleteCard', (api, _r, [board, card]) => deleteCard(api, { board: board!, card: card! })],
    },
  },
  {
    pattern: /^\/boards\/([^/]+)\/cards\/([^/]+)\/comments$/,
    methods: {
      GET: ['listComments', (api, r, [board, card]) => listComments(api, r, { board: board!, card: card! })],
      POST: ['createComment', (api, r, [board, card]) => createComment(api, r, { board: board!, card: card! })],
    },
  },
  {
    pattern: /^\/boards\/([^/]+)\/labels\/([^/]+)$/,
    methods: {
      PUT: ['putLabel', (api, r, [board, key]) => putLabel(api, r, board!, key!)],
      GET: ['getLabel', (api, _r, [board, key]) => getLabel(api, board!, key!)],
    },
  },
];

const UNPROTECTED: Partial<Record<CardwallFault, string>> = {
  'delete-board-without-key': 'deleteBoard',
  'comments-without-key': 'listComments',
};

async function handle(api: Cardwall, request: Incoming): Promise<Reply> {
  const route = ROUTES.find((candidate) => candidate.pattern.test(request.path));
  if (!route) return api.error(404, `Nothing at ${request.path}`);
  const entry = route.methods[request.method === 'HEAD' ? 'GET' : request.method];
  if (!entry) {
    const allow = Object.keys(route.methods).join(', ');
    return api.error(405, `${request.method} is not allowed here: use ${allow}`, { allow });
  }
  const [operation, handler] = entry;
  const refusal = authRefusal(api, operation, request.headers['x-api-key']);
  if (refusal) return refusal;
  const segments = route.pattern.exec(request.path)!.slice(1).map(decodeSegment);
  return handler(api, request, segments);
}

function authRefusal(api: Cardwall, operation: string, key: string | string[] | undefined): Reply | undefined {
  if (api.fault !== undefined && UNPROTECTED[api.fault] === operation) return undefined;
  if (typeof key === 'string' && (key === api.apiKey || (api.on('any-api-key') && key.length > 0))) return undefined;
  if (key === undefined && api.on('missing-key-403')) return api.error(403, 'Forbidden');
  return api.error(401, key === undefined ? 'An X-Api-Key header is required' : 'The API key is not valid');
}

/** Starts a Cardwall deployment on a loopback port: the reference, a named variant, or one fault. */
export async function startCardwall(
  options: { fault?: CardwallFault; variant?: string; apiKey?: string } = {},
): Promise<Listening> {
  const { fault, variant = 'reference', apiKey = 'cardwall-key' } = options;
  if (fault !== undefined && !CARDWALL_FAULTS.some((known) => known.name === fault))
    throw new Error(`Unknown Cardwall fault ${fault}`);
  const choices = CARDWALL_VARIANTS[variant];
  if (!choices) throw new Error(`Unknown Cardwall variant ${variant}`);
  const api = new Cardwall(apiKey, fault, choices);
  return listen({
    basePath: CARDWALL_BASE_PATH,
    handle: (request) => handle(api, request),
    crash: (thrown) => ({
      status: 500,
      body: JSON.stringify({ message: thrown instanceof Error ? thrown.message : 'Internal error' }),
      contentType: 'application/json',
    }),
    outside: (path) => api.error(404, `Nothing at ${path}`),
  });
}
