// The observable state, byte for byte: every tenant's pet list (limit=100) and each listed pet by
// id, plus the domain world's state and records. Two snapshots that differ name what changed.
import { bearer, pool } from './api-client.js';

/** {tenants: {label: {list, pets: {id: body}}}, world: {state, records}} as the server answers them. */
export async function snapshotStore(client, { keys, admin }) {
  const tenants = {};
  for (const [label, key] of Object.entries(keys)) {
    const list = await client.get('/v1/pets?limit=100', bearer(key));
    const tenant = { list: `${list.status} ${list.body}`, pets: {} };
    let ids = [];
    try {
      ids = JSON.parse(list.body).map((pet) => pet.id);
    } catch {
      ids = [];
    }
    const pets = await pool(ids, 8, (id) => client.get(`/v1/pets/${id}`, bearer(key)));
    ids.forEach((id, index) => (tenant.pets[id] = `${pets[index].status} ${pets[index].body}`));
    tenants[label] = tenant;
  }
  const state = await client.get('/__kennel/world/state', bearer(admin));
  const records = await client.get('/__kennel/world/records', bearer(admin));
  return {
    tenants,
    world: { state: `${state.status} ${state.body}`, records: `${records.status} ${records.body}` },
  };
}

function excerpt(text) {
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** The two texts around where they first differ. */
function around(a, b) {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at += 1;
  const from = Math.max(0, at - 60);
  const cut = (text) => `${from > 0 ? '…' : ''}${text.slice(from, at + 100)}${text.length > at + 100 ? '…' : ''}`;
  return { before: cut(a), after: cut(b) };
}

/** What differs between two snapshots: [{where, before, after}] ('store' and 'world' kept apart). */
export function diffSnapshots(before, after) {
  const store = [];
  for (const [label, tenant] of Object.entries(before.tenants)) {
    const later = after.tenants[label];
    if (!later) {
      store.push({ tenant: label, where: `tenant ${label}`, before: 'present', after: 'missing' });
      continue;
    }
    if (tenant.list !== later.list)
      store.push({ tenant: label, where: `GET /v1/pets?limit=100 as ${label}`, ...around(tenant.list, later.list) });
    for (const [id, body] of Object.entries(tenant.pets))
      if (later.pets[id] !== body)
        store.push({
          tenant: label,
          where: `GET /v1/pets/${id} as ${label}`,
          ...around(body, later.pets[id] ?? '(not listed)'),
        });
    for (const id of Object.keys(later.pets))
      if (!(id in tenant.pets))
        store.push({
          tenant: label,
          where: `GET /v1/pets/${id} as ${label}`,
          before: '(not listed)',
          after: excerpt(later.pets[id]),
        });
  }
  const world = [];
  for (const part of ['state', 'records'])
    if (before.world[part] !== after.world[part])
      world.push({ where: `GET /__kennel/world/${part}`, ...around(before.world[part], after.world[part]) });
  return { store, world };
}
