// Concurrent writers across tenants: every key creates pets at the same time; afterwards each pet
// must read back byte-identical for its creator, and no other tenant may see it.
import { bearer, pool } from './api-client.js';
import { Prng } from './prng.js';

const STATUSES = ['available', 'pending', 'sold'];

/**
 * `perKey` creates per key, `concurrency` in flight per key, all keys at once. Resolves
 * {created, createStatuses, readBackMismatches, crossTenantSightings, duplicateIds, errors, findings}.
 */
export async function runWriters({ client, keys, perKey, concurrency, seed }) {
  const rng = new Prng(seed);
  const findings = [];
  const createStatuses = {};
  let errors = 0;
  const created = {};
  await Promise.all(
    Object.entries(keys).map(async ([label, key]) => {
      const tenantRng = rng.fork(label);
      const bodies = Array.from({ length: perKey }, (_, index) => ({
        name: `rel-${label}-${index}-${tenantRng.word(6)}`,
        categoryId: tenantRng.int(1, 10),
        status: tenantRng.pick(STATUSES),
      }));
      const results = await pool(bodies, concurrency, async (body) => {
        try {
          return { body, response: await client.post('/v1/pets', body, bearer(key)) };
        } catch (error) {
          errors += 1;
          return { body, error: error.code ?? error.message };
        }
      });
      created[label] = [];
      for (const { body, response } of results) {
        if (!response) continue;
        createStatuses[response.status] = (createStatuses[response.status] ?? 0) + 1;
        if (response.status !== 201) {
          findings.push({
            kind: 'create',
            detail: `create as ${label} answered ${response.status}: ${response.body.slice(0, 160)}`,
          });
          continue;
        }
        const pet = JSON.parse(response.body);
        created[label].push({ id: pet.id, name: body.name, text: response.body });
      }
    }),
  );
  let duplicateIds = 0;
  for (const [label, pets] of Object.entries(created)) {
    const ids = new Set(pets.map((pet) => pet.id));
    if (ids.size !== pets.length) {
      duplicateIds += pets.length - ids.size;
      findings.push({ kind: 'duplicate-id', detail: `${pets.length - ids.size} ids given twice to ${label}` });
    }
  }
  let readBackMismatches = 0;
  let crossTenantSightings = 0;
  const labels = Object.keys(keys);
  const reads = Object.entries(created).flatMap(([label, pets]) => pets.map((pet) => ({ label, pet })));
  await pool(reads, concurrency * labels.length, async ({ label, pet }) => {
    for (const reader of labels) {
      let response;
      try {
        response = await client.get(`/v1/pets/${pet.id}`, bearer(keys[reader]));
      } catch (error) {
        errors += 1;
        findings.push({ kind: 'read', detail: `GET /v1/pets/${pet.id} as ${reader}: ${error.code ?? error.message}` });
        continue;
      }
      if (reader === label && response.body !== pet.text) {
        readBackMismatches += 1;
        if (readBackMismatches <= 5)
          findings.push({
            kind: 'read-back',
            detail: `pet ${pet.id} of ${label}: created ${pet.text.slice(0, 120)}, read ${response.status} ${response.body.slice(0, 120)}`,
          });
      }
      if (reader !== label && response.body.includes(pet.name)) {
        crossTenantSightings += 1;
        if (crossTenantSightings <= 5)
          findings.push({ kind: 'cross-tenant', detail: `${reader} sees pet ${pet.id} of ${label}` });
      }
    }
  });
  const total = Object.values(created).reduce((sum, pets) => sum + pets.length, 0);
  return {
    tenants: labels.length,
    attempted: perKey * labels.length,
    created: total,
    createStatuses,
    readBackMismatches,
    crossTenantSightings,
    duplicateIds,
    errors,
    findings,
  };
}
