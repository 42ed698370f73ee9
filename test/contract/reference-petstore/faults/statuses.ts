import type { PetstoreFault } from '../model.js';

/** Statuses and error bodies: the documented status, and an Error body that says it. */
export const STATUS_AND_ERROR_FAULTS = [
  {
    name: 'create-200',
    description: 'createPet answers 200 instead of 201',
    checks: ['status-code-conformance'],
    hooks: { createStatus: 200 },
  },
  {
    name: 'error-missing-code',
    description: 'Error bodies lack `code`',
    checks: ['response-schema-conformance'],
    hooks: { errorBody: (correct) => ({ ...correct, code: undefined }) },
  },
  {
    name: 'error-status-mismatch',
    description: 'Error.status is always 400 whatever the HTTP status',
    checks: ['error-body-conformance'],
    hooks: { errorBody: (correct) => ({ ...correct, status: 400 }) },
  },
  {
    name: 'not-found-200-null',
    description: 'An unknown pet id answers 200 with body null',
    checks: ['not-found-conformance', 'response-schema-conformance', 'unknown-id-conformance'],
    hooks: { notFound: () => ({ status: 200, body: 'null', kind: 'json' }) },
  },
  {
    name: 'not-found-400',
    description: 'An unknown but valid pet id answers 400',
    checks: ['not-found-conformance', 'unknown-id-conformance'],
    hooks: { notFound: (id, _correct, answers) => answers.error(400, 'invalid_parameter', `No pet with id ${id}`) },
  },
] as const satisfies readonly PetstoreFault[];
