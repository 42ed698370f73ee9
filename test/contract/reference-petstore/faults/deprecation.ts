import type { PetstoreFault } from '../model.js';

/** Deprecation: the Sunset and Deprecation headers of getPet, and only of getPet. */
export const DEPRECATION_FAULTS = [
  {
    name: 'sunset-wrong-date',
    description: 'Sunset is a day early: Thu, 04 Dec 2030 23:00:00 GMT (converted from local time)',
    checks: ['sunset-date-conformance'],
    hooks: { sunset: () => 'Thu, 04 Dec 2030 23:00:00 GMT' },
  },
  {
    name: 'sunset-not-http-date',
    description: 'Sunset is written 2030-12-05, not as an HTTP-date',
    checks: ['sunset-date-conformance'],
    hooks: { sunset: () => '2030-12-05' },
  },
  {
    name: 'deprecation-on-listpets',
    description: 'listPets sends the Deprecation and Sunset headers too',
    checks: ['deprecation-headers-scoped'],
    hooks: { deprecated: (operation, correct) => correct || operation === 'listPets' },
  },
] as const satisfies readonly PetstoreFault[];
