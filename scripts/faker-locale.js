// Writes src/store/faker-en.json: the parts of faker's English locale that kennel's seeds and
// realistic text use. Importing `@faker-js/faker/locale/en` builds the whole locale (music,
// airlines, food, books…): ~2.5 MB of a server's heap that stays for its life, and enough start-up
// garbage-collector survivors to grow V8's young generation to its maximum (docs/decisions/memory.md).
// The kept modules are whole where a method's patterns may reach across them, so a seed draws
// exactly what it drew from the full locale; test/store/faker-locale.test.ts holds both.
//
//   node scripts/faker-locale.js   (after upgrading @faker-js/faker)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Locale modules kept, whole (`true`) or by definition name. */
export const KEPT = {
  animal: ['pet_name'],
  color: ['human'],
  company: true,
  internet: true,
  location: true,
  lorem: true,
  metadata: true,
  person: true,
  phone_number: true,
  word: true,
};

/** The kept part of `en` (faker's English locale definitions). */
export function englishSubset(en) {
  const subset = {};
  for (const [module, keys] of Object.entries(KEPT)) {
    if (en[module] === undefined) continue;
    subset[module] =
      keys === true
        ? en[module]
        : Object.fromEntries(keys.filter((key) => en[module][key] !== undefined).map((key) => [key, en[module][key]]));
  }
  return subset;
}

export const SUBSET_FILE = fileURLToPath(new URL('../src/store/faker-en.json', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { en } = await import('@faker-js/faker');
  writeFileSync(SUBSET_FILE, `${JSON.stringify(englishSubset(en))}\n`);
  console.log(`wrote ${SUBSET_FILE}`);
}
