import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { faker as baseFaker } from '@faker-js/faker/locale/base';
import { PET_STATUSES, type Category, type Pet, type PetStatus, type SeedProfile } from './pet.js';
import english from './faker-en.json' with { type: 'json' };

export interface SeedOptions {
  seed: number;
  count: number;
  categories: readonly Category[];
  profile: SeedProfile;
}

type FakerConstructor = new (options: { locale: LocaleDefinition[]; seed?: number }) => Faker;

/**
 * A private Faker for one seed, with the parts of the English locale kennel draws from
 * (`faker-en.json`, written by scripts/faker-locale.js): the whole locale module, or the package
 * index with every locale, would stay in the heap for the server's life (2.5 MB, +35 MB). The
 * base locale module brings the Faker class; a fresh instance per seed means no seed ever touches
 * a shared Faker.
 */
export function fakerFor(seed: number): Faker {
  const FakerClass = baseFaker.constructor as FakerConstructor;
  return new FakerClass({ locale: [english as LocaleDefinition, baseFaker.rawDefinitions], seed });
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
