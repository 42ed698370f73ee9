import type { PetstoreFault } from '../model.js';

/** Representation: the bytes of an answer break its documented schema or media type. */
export const REPRESENTATION_FAULTS = [
  {
    name: 'status-null',
    description: 'A pet without status is emitted with "status": null',
    checks: ['response-schema-conformance'],
    hooks: { petJson: (pet, correct) => ({ ...correct, status: pet.status ?? null }) },
  },
  {
    name: 'id-as-string',
    description: 'Ids are emitted as JSON strings',
    checks: ['response-schema-conformance'],
    hooks: { petJson: (pet, correct) => ({ ...correct, id: pet.id.toString() }) },
  },
  {
    name: 'list-envelope',
    description: 'GET /pets answers {"items": [...]} instead of an array',
    checks: ['response-schema-conformance'],
    hooks: { listBody: (items) => ({ items }) },
  },
  {
    name: 'text-plain-json',
    description: 'Successful responses have Content-Type text/plain with a JSON body',
    checks: ['content-type-conformance'],
    hooks: { contentType: (reply, correct) => (reply.status < 300 ? 'text/plain; charset=utf-8' : correct) },
  },
  {
    name: 'categoryid-missing-in-list',
    description: 'List items lack categoryId',
    checks: ['data-fidelity', 'response-schema-conformance'],
    hooks: { petJson: (_pet, correct, inList) => (inList ? { ...correct, categoryId: undefined } : correct) },
  },
] as const satisfies readonly PetstoreFault[];
