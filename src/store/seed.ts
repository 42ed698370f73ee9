import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import { PET_STATUSES, type Category, type Pet, type PetStatus, type SeedProfile } from './pet.js';

export interface SeedOptions {
  seed: number;
  count: number;
  categories: readonly Category[];
  profile: SeedProfile;
}

type FakerConstructor = new (options: { locale: Faker['rawDefinitions']; seed?: number }) => Faker;

/**
 * A private Faker for one seed. The English locale module is imported on its own (not the
 * package index, which loads every locale: +110 ms and +35 MB at start-up); its constructor and
 * definitions build a fresh instance, so no seed ever touches a shared Faker.
 */
export function fakerFor(seed: number): Faker {
  const FakerClass = englishFaker.constructor as FakerConstructor;
  return new FakerClass({ locale: englishFaker.rawDefinitions, seed });
}

/** The pets a store starts with: same options ⇒ the same pets, field for field. */
export function seedPets({ seed, count, categories, profile }: SeedOptions): Pet[] {
  const faker = fakerFor(seed);
  const statuses = PET_STATUSES.map((status) => ({ value: status, weight: profile.statusWeights[status] }));
  const categoryChoices = categories.map((category) => ({ value: category.id, weight: category.weight }));
  const pets: Pet[] = [];
  for (let index = 0; index < count; index += 1) {
    const pet: Pet = {
      id: index + 1,
      name: faker.animal.petName(),
      categoryId: faker.helpers.weightedArrayElement(categoryChoices),
    };
    const status: PetStatus = faker.helpers.weightedArrayElement(statuses);
    if (faker.number.float({ min: 0, max: 1 }) >= profile.withoutStatus) pet.status = status;
    pets.push(pet);
  }
  return pets;
}
