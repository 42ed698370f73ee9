import { PET_STATUSES, type PetstoreFault } from '../model.js';

/** Invalid input accepted: a body the document refuses is stored, coerced or wrapped. */
export const INVALID_INPUT_FAULTS = [
  {
    name: 'missing-name-accepted',
    description: 'name is not required; a missing name is stored as ""',
    checks: ['negative-data-rejection'],
    hooks: { name: (value, read) => (value === undefined ? '' : read(value)) },
  },
  {
    name: 'categoryid-string-accepted',
    description: 'categoryId "7" is accepted and coerced to 7',
    checks: ['negative-data-rejection'],
    hooks: {
      categoryId: (value, read) => (typeof value === 'string' && /^-?\d+$/.test(value) ? BigInt(value) : read(value)),
    },
  },
  {
    name: 'fractional-categoryid-accepted',
    description: 'categoryId 1.5 is accepted',
    checks: ['negative-data-rejection', 'response-schema-conformance'],
    hooks: {
      categoryId: (value, read) => (typeof value === 'number' && !Number.isInteger(value) ? value : read(value)),
    },
  },
  {
    name: 'int64-overflow-accepted',
    description: 'categoryId beyond the int64 range is accepted',
    checks: ['response-schema-conformance'],
    hooks: { categoryId: (value, read) => (typeof value === 'bigint' ? value : read(value)) },
  },
  {
    name: 'status-enum-unchecked',
    description: 'Any status string is accepted and stored',
    checks: ['negative-data-rejection', 'response-schema-conformance'],
    hooks: { status: (value, read) => (typeof value === 'string' ? value : read(value)) },
  },
  {
    name: 'array-body-201',
    description: 'A JSON array body is accepted: 201 with a pet made of defaults',
    checks: ['negative-data-rejection'],
    hooks: { newPet: (body, read) => (Array.isArray(body) ? { name: '', categoryId: 0n } : read(body)) },
  },
  {
    name: 'status-enum-case-insensitive',
    description: 'status is compared ignoring case: "Available" is accepted',
    checks: ['negative-data-rejection'],
    hooks: {
      status: (value, read) =>
        read(
          typeof value === 'string' ? (PET_STATUSES.find((status) => status === value.toLowerCase()) ?? value) : value,
        ),
    },
  },
  {
    name: 'status-empty-accepted',
    description: 'status "" is taken for no status',
    checks: ['negative-data-rejection'],
    hooks: { status: (value, read) => read(value === '' ? undefined : value) },
  },
  {
    name: 'status-null-accepted',
    description: 'status null is taken for no status',
    checks: ['negative-data-rejection'],
    hooks: { status: (value, read) => read(value === null ? undefined : value) },
  },
  {
    name: 'categoryid-boolean-coerced',
    description: 'categoryId true is accepted as 1',
    checks: ['negative-data-rejection'],
    hooks: { categoryId: (value, read) => (value === true ? 1n : read(value)) },
  },
  {
    name: 'categoryid-array-unwrapped',
    description: 'categoryId [7] is accepted as 7',
    checks: ['negative-data-rejection'],
    hooks: {
      categoryId: (value, read) => (Array.isArray(value) && typeof value[0] === 'bigint' ? value[0] : read(value)),
    },
  },
  {
    name: 'int64-overflow-wrapped',
    description: 'categoryId beyond int64 is stored wrapped to 64 bits (2^63 becomes -2^63)',
    checks: ['negative-data-rejection'],
    hooks: { categoryId: (value, read) => (typeof value === 'bigint' ? BigInt.asIntN(64, value) : read(value)) },
  },
] as const satisfies readonly PetstoreFault[];
