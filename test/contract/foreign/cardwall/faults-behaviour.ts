// The Cardwall faults of behaviour: envelopes, pagination, negative inputs, state and references (see faults.ts). Each is one clear violation of
// test/fixtures/foreign/cardwall-kanban.yaml and declares the checks that must catch it, and whether
// kennel check catches it today or what capability it waits for.
import type { FaultSpec } from '../fault-catalogue.js';

export const BEHAVIOUR_FAULTS = [
  // --- envelopes ------------------------------------------------------------------------------------
  {
    name: 'cards-bare-array',
    family: 'envelopes',
    description: 'listCards answers a bare array instead of {data, meta}',
    checks: ['response-schema-conformance', 'pagination-followed'],
    caughtToday: true,
  },
  {
    name: 'comments-meta-missing',
    family: 'envelopes',
    description: 'listComments answers {data} without the required meta',
    checks: ['response-schema-conformance', 'pagination-followed'],
    caughtToday: true,
  },
  {
    name: 'cards-next-cursor-omitted',
    family: 'envelopes',
    description: 'The last page of listCards omits meta.next_cursor instead of giving null',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
  // --- pagination -----------------------------------------------------------------------------------
  {
    name: 'boards-next-same-page',
    family: 'pagination',
    description: "listBoards' Link rel=next names the page itself",
    checks: ['pagination-followed'],
    caughtToday: true,
  },
  {
    name: 'boards-per-page-ignored',
    family: 'pagination',
    description: 'listBoards ignores per_page: always 20 boards a page',
    checks: ['limit-honoured', 'collection-consistency'],
    caughtToday: true,
  },
  {
    name: 'boards-next-on-last-page',
    family: 'pagination',
    description: "listBoards' last page still has a Link rel=next (to an empty page)",
    checks: ['pagination-followed'],
    caughtToday: true,
  },
  {
    name: 'cards-cursor-restarts',
    family: 'pagination',
    description: "listCards' next_cursor gives the first page again",
    checks: ['pagination-followed'],
    caughtToday: true,
  },
  {
    name: 'cards-limit-plus-one',
    family: 'pagination',
    description: 'listCards answers limit+1 cards',
    checks: ['limit-honoured', 'collection-consistency', 'pagination-followed'],
    caughtToday: true,
  },
  // --- negative inputs ------------------------------------------------------------------------------
  {
    name: 'board-name-too-long',
    family: 'negative',
    description: 'createBoard accepts a name of more than 80 characters',
    checks: ['negative-data-rejection', 'response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'card-status-unchecked',
    family: 'negative',
    description: 'createCard accepts a status outside todo/doing/done',
    checks: ['negative-data-rejection', 'response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'per-page-above-max',
    family: 'negative',
    description: 'listBoards honours per_page above its maximum of 100',
    checks: ['negative-data-rejection', 'limit-honoured'],
    caughtToday: true,
  },
  {
    name: 'due-at-not-date-time',
    family: 'negative',
    description: 'createCard accepts a due_at that is not a date-time ("tomorrow")',
    checks: ['negative-data-rejection'],
    caughtToday: true,
  },
  {
    name: 'label-color-unchecked',
    family: 'negative',
    description: 'putLabel accepts a color outside ^#[0-9a-f]{6}$ ("purple")',
    checks: ['negative-data-rejection', 'response-schema-conformance'],
    caughtToday: true,
  },
  // --- state ----------------------------------------------------------------------------------------
  {
    name: 'board-patch-ignored',
    family: 'state',
    description: 'updateBoard answers the patched board but stores nothing',
    checks: ['resource-round-trip', 'resource-lifecycle', 'conditional-requests'],
    caughtToday: true,
    caughtBy: ['conditional-requests', 'resource-lifecycle'],
  },
  {
    name: 'card-patch-replaces',
    family: 'state',
    description: 'updateCard treats the merge patch as a replacement: members left out are reset',
    checks: ['resource-round-trip', 'resource-lifecycle'],
    caughtToday: true,
    caughtBy: ['resource-lifecycle'],
  },
  {
    name: 'merge-patch-null-kept',
    family: 'state',
    description: 'updateCard with due_at: null keeps the old due_at instead of removing it',
    checks: ['resource-lifecycle', 'resource-round-trip'],
    caughtToday: true,
    caughtBy: ['resource-lifecycle'],
  },
  {
    name: 'board-delete-keeps',
    family: 'state',
    description: 'deleteBoard answers 204 but the board is still readable',
    checks: ['resource-lifecycle'],
    caughtToday: true,
  },
  {
    name: 'archive-not-stored',
    family: 'state',
    description: 'archiveBoard answers state archived, but the board reads back active',
    checks: ['resource-round-trip', 'filter-honoured'],
    caughtToday: true,
    caughtBy: ['filter-honoured'],
  },
  // --- references -----------------------------------------------------------------------------------
  {
    name: 'cards-of-unknown-board',
    family: 'references',
    description: 'listCards of an unknown board answers 200 with an empty page instead of 404',
    checks: ['unknown-id-conformance', 'not-found-conformance', 'negative-data-rejection'],
    caughtToday: true,
    caughtBy: ['negative-data-rejection'],
  },
  {
    name: 'card-read-across-boards',
    family: 'references',
    description: 'getCard answers a card under a board that does not hold it instead of 404',
    checks: ['reads-scoped-to-parent', 'unknown-id-conformance'],
    caughtToday: true,
    caughtBy: ['reads-scoped-to-parent'],
  },
  {
    name: 'card-board-id-wrong',
    family: 'references',
    description: "Cards' board_id names the first board listed at start, not the board that holds them",
    checks: ['reads-scoped-to-parent', 'data-fidelity'],
    caughtToday: true,
    caughtBy: ['reads-scoped-to-parent'],
  },
  {
    name: 'comment-on-deleted-card',
    family: 'references',
    description: 'createComment on a deleted card answers 201 instead of 404',
    checks: ['resource-lifecycle'],
    caughtToday: true,
  },
] as const satisfies readonly FaultSpec[];
