import type { PetstoreFault } from '../model.js';

/** Filters: `status` selects exactly the pets that have it. */
export const FILTER_FAULTS = [
  {
    name: 'filter-ignored',
    description: 'The status filter is ignored',
    checks: ['filter-honoured'],
    hooks: { matches: () => true },
  },
  {
    name: 'filter-inverted',
    description: 'The status filter returns the pets whose status differs',
    checks: ['collection-consistency', 'filter-honoured', 'list-freshness', 'resource-round-trip'],
    hooks: { matches: (_pet, _status, correct) => !correct },
  },
  {
    name: 'filter-skips-first',
    description: 'Filtered lists start after the first pet (id > first, not >=)',
    checks: ['collection-consistency'],
    hooks: { matches: (pet, _status, correct, firstId) => correct && pet.id !== firstId },
  },
] as const satisfies readonly PetstoreFault[];
