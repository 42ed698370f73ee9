import type { PetstoreFault } from '../model.js';

/** Collections: lists and reads of one store agree with each other and with the writes. */
export const COLLECTION_FAULTS = [
  {
    name: 'getpet-wrong-pet',
    description: 'getPet returns the pet with id-1 when it exists',
    checks: ['collection-consistency', 'data-fidelity', 'read-returns-requested', 'resource-round-trip'],
    hooks: { foundPet: (id, pets, correct) => correct && (pets.find((pet) => pet.id === id - 1n) ?? correct) },
  },
  {
    name: 'list-categoryid-misaligned',
    description: 'List items show the categoryId of the pet listed before them',
    checks: ['collection-consistency', 'data-fidelity'],
    hooks: {
      listed: (correct) =>
        correct.map((pet, index) => (index === 0 ? pet : { ...pet, categoryId: correct[index - 1]!.categoryId })),
    },
  },
  {
    name: 'list-order-unstable',
    description: 'Lists merge two shards in the order they answer: the same request twice differs',
    checks: ['collection-consistency'],
    hooks: {
      order: (pets, request) => {
        const odd = pets.filter((pet) => pet.id % 2n === 1n);
        const even = pets.filter((pet) => pet.id % 2n === 0n);
        return request % 2 === 0 ? [...odd, ...even] : [...even, ...odd];
      },
    },
  },
  {
    name: 'list-replica-lag',
    // Behind by writes, not time: a busy machine's slow run never lets the replica catch up.
    description: 'Lists come from a replica 25 writes behind: the newest pets are missing',
    checks: ['data-fidelity', 'filter-honoured', 'list-freshness', 'resource-round-trip'],
    hooks: { listLagWrites: 25 },
  },
] as const satisfies readonly PetstoreFault[];
