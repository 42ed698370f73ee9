// kennel's Faker carries only the parts of the English locale it draws from (src/store/faker-en.json,
// written by scripts/faker-locale.js): a seed must draw exactly what it drew from the whole locale,
// for every faker method kennel calls, and the file must be what the script makes of the
// installed faker (run the script after an upgrade).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Faker, base, en } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script without declarations
import { englishSubset } from '../../scripts/faker-locale.js';
import { fakerFor } from '../../src/store/seed.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every faker method src/ calls, as it calls it: `module.method` -> a draw. */
const DRAWS: Record<string, (faker: Faker) => unknown> = {
  'animal.petName': (faker) => faker.animal.petName(),
  'color.human': (faker) => faker.color.human(),
  'company.name': (faker) => faker.company.name(),
  'helpers.weightedArrayElement': (faker) =>
    faker.helpers.weightedArrayElement([
      { value: 'a', weight: 3 },
      { value: 'b', weight: 1 },
    ]),
  'internet.email': (faker) => faker.internet.email(),
  'internet.url': (faker) => faker.internet.url(),
  'internet.username': (faker) => faker.internet.username(),
  'location.city': (faker) => faker.location.city(),
  'location.country': (faker) => faker.location.country(),
  'location.streetAddress': (faker) => faker.location.streetAddress(),
  'location.zipCode': (faker) => faker.location.zipCode(),
  'lorem.sentence': (faker) => [faker.lorem.sentence(), faker.lorem.sentence({ min: 2, max: 6 })],
  'number.float': (faker) => faker.number.float({ min: 0, max: 1 }),
  'person.firstName': (faker) => faker.person.firstName(),
  'person.fullName': (faker) => faker.person.fullName(),
  'person.lastName': (faker) => faker.person.lastName(),
  'phone.number': (faker) => faker.phone.number({ style: 'international' }),
  'word.noun': (faker) => faker.word.noun(),
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

describe("kennel's English locale for faker", () => {
  it('is what scripts/faker-locale.js makes of the installed faker', () => {
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'src/store/faker-en.json'), 'utf8')) as unknown;
    expect(committed).toEqual(englishSubset(en));
  });

  it('covers every faker method src/ calls', () => {
    const called = new Set<string>();
    for (const file of sourceFiles(path.join(ROOT, 'src')))
      for (const match of readFileSync(file, 'utf8').matchAll(/\bfaker\.(\w+)\.(\w+)\(/g))
        called.add(`${match[1]}.${match[2]}`);
    expect(called.size).toBeGreaterThan(10);
    expect([...called].filter((method) => !(method in DRAWS))).toEqual([]);
  });

  it('draws, seed for seed, what the whole English locale draws', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const whole = new Faker({ locale: [en, base], seed });
      const ours = fakerFor(seed);
      for (const [method, draw] of Object.entries(DRAWS))
        expect([method, seed, draw(ours)]).toEqual([method, seed, draw(whole)]);
    }
  });
});
