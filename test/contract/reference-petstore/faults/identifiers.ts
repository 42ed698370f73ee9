import type { PetstoreFault } from '../model.js';

/** Identifiers: assigned by the server, unique, permanent, and read only as themselves. */
export const IDENTIFIER_FAULTS = [
  {
    name: 'client-id-honoured',
    description: "A client-sent integer id becomes the pet's id",
    checks: ['server-assigned-id'],
    hooks: { honoursClientId: true },
  },
  {
    name: 'duplicate-ids-concurrent',
    description:
      'Id assignment awaits between reading and incrementing the counter: concurrent creates get duplicate ids',
    checks: ['collection-consistency', 'data-fidelity', 'id-permanence', 'id-uniqueness', 'ids-never-reused'],
    hooks: { assignDelayMs: 25 },
  },
  {
    name: 'petid-unicode-digits',
    description: 'petIds in other digit scripts (١, １) read the pet of that number',
    checks: ['unknown-id-conformance'],
    hooks: { petIdText: (text) => text.replace(/\p{Nd}/gu, (digit) => String(digitValue(digit))) },
  },
  {
    name: 'negative-id-wraps',
    description: 'getPet indexes the pets by id - 1: id 0 and negative ids read pets from the end',
    checks: ['unknown-id-conformance'],
    hooks: { foundPet: (id, pets, correct) => (id <= 0n ? pets.at(Number(id) - 1) : correct) },
  },
  {
    name: 'location-next-id',
    description: "createPet's Location names the next id (the counter after its increment)",
    checks: ['location-resolves'],
    hooks: { location: (id) => ({ location: `/v1/pets/${id + 1n}` }) },
  },
  {
    name: 'ids-recycled',
    description: 'Ids cycle through 100 values: the 101st pet takes the first id and replaces that pet',
    checks: ['id-permanence', 'ids-never-reused'],
    hooks: {
      assignedId: (id, firstId) => firstId + ((id - firstId) % 100n),
      keep: (pet, correct) => correct.filter((kept) => kept === pet || kept.id !== pet.id),
    },
  },
  {
    name: 'pets-evicted',
    description: 'Only the newest 100 pets are kept: older ones answer 404',
    checks: ['id-permanence'],
    hooks: { keep: (_pet, correct) => correct.slice(-100) },
  },
] as const satisfies readonly PetstoreFault[];

/** The value of a decimal digit of any script (Unicode puts each script's 0-9 in a row). */
function digitValue(digit: string): number {
  const code = digit.codePointAt(0)!;
  let zero = code;
  while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1)) && code - zero < 9) zero -= 1;
  return code - zero;
}
