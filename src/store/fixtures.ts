import type { Category, SeedProfile } from './pet.js';

/** The seed data kennel's store starts from (fixtures/categories.json and fixtures/pets.json). */
export interface PetFixtures {
  categories: Category[];
  profile: SeedProfile;
}

/** Checks fixture files' content; returns a message naming the bad field, or undefined. */
export function fixtureProblem(fixtures: PetFixtures): string | undefined {
  const { categories, profile } = fixtures;
  if (!Array.isArray(categories) || categories.length === 0) return 'categories.json must be a non-empty array';
  const bad = categories.findIndex(
    (c) => !Number.isSafeInteger(c?.id) || typeof c?.name !== 'string' || !(c?.weight > 0),
  );
  if (bad !== -1) return `categories.json /${bad} needs an integer id, a name and a positive weight`;
  const weights = profile?.statusWeights;
  if (
    !weights ||
    !['available', 'pending', 'sold'].every((status) => (weights as Record<string, number>)[status]! >= 0)
  ) {
    return 'pets.json /statusWeights needs a non-negative weight for available, pending and sold';
  }
  if (!(profile.withoutStatus >= 0 && profile.withoutStatus <= 1))
    return 'pets.json /withoutStatus must be between 0 and 1';
  return undefined;
}
