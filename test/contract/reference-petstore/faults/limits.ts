import type { PetstoreFault } from '../model.js';

/** Limits and pages: `limit` honoured within 1..100, pages that neither skip nor repeat. */
export const LIMIT_FAULTS = [
  {
    name: 'limit-ignored',
    description: 'limit is ignored: every matching pet is returned',
    checks: ['collection-consistency', 'limit-honoured'],
    hooks: { pageSize: ({ listed }) => listed },
  },
  {
    name: 'default-limit-10',
    description: 'The default limit is 10 instead of 20',
    checks: ['collection-consistency', 'limit-honoured'],
    hooks: { limit: (values, read) => (values.length === 0 ? 10 : read(values)) },
  },
  {
    name: 'no-max-limit',
    description: 'Limits above 100 are honoured instead of refused',
    checks: ['limit-honoured'],
    hooks: {
      limit: (values, read) => {
        const limit = integerOf(values);
        return limit !== undefined && limit > 100 ? limit : read(values);
      },
    },
  },
  {
    name: 'limit-zero-accepted',
    description: 'limit=0 answers 200 [] instead of 400',
    checks: ['limit-honoured'],
    hooks: { limit: (values, read) => (integerOf(values) === 0 ? 0 : read(values)) },
  },
  {
    name: 'limit-off-by-one',
    description: 'GET /pets returns limit+1 pets when available',
    checks: ['collection-consistency', 'limit-honoured'],
    hooks: { pageSize: (_list, correct) => correct + 1 },
  },
  {
    name: 'max-limit-rejected',
    description: 'limit=100, the documented maximum, answers 400',
    checks: ['collection-consistency', 'positive-data-acceptance', 'status-code-conformance'],
    hooks: {
      limit: (values, read, answers) => {
        if (integerOf(values) === 100)
          throw answers.badRequest('invalid_parameter', 'Query parameter limit must be below 100');
        return read(values);
      },
    },
  },
  {
    name: 'page-boundary-skip',
    description: 'A list cut by its limit drops its last item and shows the next one instead',
    checks: ['collection-consistency'],
    hooks: {
      page: (pets, correct) =>
        correct.length < pets.length ? [...correct.slice(0, -1), pets[correct.length]!] : correct,
    },
  },
  {
    name: 'filtered-default-limit-10',
    description: 'With a status filter and no limit, at most 10 pets are listed',
    checks: ['collection-consistency'],
    hooks: { pageSize: ({ filtered, limitGiven }, correct) => (filtered && !limitGiven ? 10 : correct) },
  },
] as const satisfies readonly PetstoreFault[];

/** The number when `limit` is given once as an integer (`0`, `100`, `-3`). */
function integerOf(values: readonly string[]): number | undefined {
  return values.length === 1 && /^-?\d+$/.test(values[0]!) ? Number(values[0]) : undefined;
}
