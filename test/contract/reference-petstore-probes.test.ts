// Every fault of the reference Pet Store is really active: each fault's probe sees the violation
// on the mutant and does not see it on the correct server.
import { describe, expect, it } from 'vitest';
import { FAULTS, startReferencePetstore, type Fault } from './reference-petstore.js';
import { withServer, rex, type Exchange, type Api } from './reference-petstore-client.js';

// One probe per fault: true when the fault's violation is observed. Each probe is run against the
// mutant (must see it) and against the correct server (must not), so no probe can pass vacuously.
interface FaultProbe {
  seedPets?: number;
  exhibits(api: Api): Promise<boolean>;
}

const noAuth = { auth: null };
const statusOf = async (exchange: Promise<Exchange>): Promise<number> => (await exchange).status;

const idsOf = (exchange: Exchange): string => exchange.body.map((pet: { id: number }) => pet.id).join();

const FAULT_PROBES: Record<Fault, FaultProbe> = {
  'no-auth': { exhibits: async (api) => (await statusOf(api.get('/pets', noAuth))) === 200 },
  'any-token': { exhibits: async (api) => (await statusOf(api.get('/pets', { auth: 'Bearer wrong' }))) === 200 },
  'basic-accepted': {
    exhibits: async (api) => (await statusOf(api.get('/pets', { auth: `Basic ${btoa('a:b')}` }))) === 200,
  },
  'post-unprotected': { exhibits: async (api) => (await statusOf(api.post(rex, noAuth))) === 201 },
  'getpet-unprotected': { exhibits: async (api) => (await statusOf(api.get('/pets/1', noAuth))) === 200 },
  'orders-unprotected': { exhibits: async (api) => (await statusOf(api.get('/store/orders', noAuth))) === 200 },
  'auth-403': {
    exhibits: async (api) => {
      const refused = await api.get('/pets', noAuth);
      return refused.status === 403 && refused.body.status === 403;
    },
  },
  'auth-plain-text': {
    exhibits: async (api) => {
      const refused = await api.get('/pets', noAuth);
      return (
        refused.status === 401 &&
        refused.headers.get('content-type')!.startsWith('text/plain') &&
        refused.text === 'Unauthorized'
      );
    },
  },
  'error-missing-code': { exhibits: async (api) => !('code' in (await api.get('/pets/999')).body) },
  'error-status-mismatch': {
    exhibits: async (api) => {
      const missing = await api.get('/pets/999');
      return missing.status === 404 && missing.body.status === 400;
    },
  },
  'create-200': { exhibits: async (api) => (await statusOf(api.post(rex))) === 200 },
  'limit-ignored': { seedPets: 5, exhibits: async (api) => (await api.get('/pets?limit=2')).body.length === 5 },
  'default-limit-10': { seedPets: 30, exhibits: async (api) => (await api.get('/pets')).body.length === 10 },
  'no-max-limit': { seedPets: 120, exhibits: async (api) => (await api.get('/pets?limit=101')).body.length === 101 },
  'limit-zero-accepted': { exhibits: async (api) => (await statusOf(api.get('/pets?limit=0'))) === 200 },
  'limit-off-by-one': { seedPets: 5, exhibits: async (api) => (await api.get('/pets?limit=2')).body.length === 3 },
  'filter-ignored': { exhibits: async (api) => (await api.get('/pets?status=sold')).body.length === 3 },
  'filter-inverted': {
    exhibits: async (api) => {
      const names = (await api.get('/pets?status=sold')).body.map((pet: { name: string }) => pet.name);
      return names.join() === 'Rex,Tom';
    },
  },
  'missing-name-accepted': { exhibits: async (api) => (await api.post({ categoryId: 1 })).body.name === '' },
  'categoryid-string-accepted': {
    exhibits: async (api) => (await api.post({ name: 'Rex', categoryId: '7' })).body.categoryId === 7,
  },
  'fractional-categoryid-accepted': {
    exhibits: async (api) => (await statusOf(api.post({ name: 'Rex', categoryId: 1.5 }))) === 201,
  },
  'int64-overflow-accepted': {
    exhibits: async (api) => (await statusOf(api.post('{"name":"Rex","categoryId":9223372036854775808}'))) === 201,
  },
  'categoryid-precision-lost': {
    exhibits: async (api) => {
      const created = await api.post('{"name":"Rex","categoryId":9007199254740993}');
      return created.status === 201 && !created.text.includes('"categoryId":9007199254740993');
    },
  },
  'status-enum-unchecked': {
    exhibits: async (api) => (await api.post({ ...rex, status: 'lost' })).body.status === 'lost',
  },
  'malformed-json-500': { exhibits: async (api) => (await statusOf(api.post('{"name":'))) === 500 },
  'empty-body-500': { exhibits: async (api) => (await statusOf(api.post(''))) === 500 },
  'array-body-201': { exhibits: async (api) => (await statusOf(api.post([]))) === 201 },
  'bad-limit-500': { exhibits: async (api) => (await statusOf(api.get('/pets?limit=abc'))) === 500 },
  'bad-petid-500': { exhibits: async (api) => (await statusOf(api.get('/pets/abc'))) === 500 },
  'lost-write': {
    exhibits: async (api) => {
      const created = await api.post(rex);
      return created.status === 201 && (await statusOf(api.get(`/pets/${created.body.id}`))) === 404;
    },
  },
  'status-dropped': {
    exhibits: async (api) => {
      const created = await api.post({ ...rex, status: 'sold' });
      const read = await api.get(`/pets/${created.body.id}`);
      return created.body.status === 'sold' && read.status === 200 && read.body.status === undefined;
    },
  },
  'status-null': { exhibits: async (api) => (await api.post(rex)).text.includes('"status":null') },
  'client-id-honoured': { exhibits: async (api) => (await api.post({ ...rex, id: 777 })).body.id === 777 },
  'duplicate-ids-concurrent': {
    exhibits: async (api) => {
      const created = await Promise.all(Array.from({ length: 6 }, () => api.post(rex)));
      return new Set(created.map((exchange) => exchange.body.id)).size < 6;
    },
  },
  'id-as-string': { exhibits: async (api) => typeof (await api.get('/pets')).body[0].id === 'string' },
  'list-envelope': { exhibits: async (api) => Array.isArray((await api.get('/pets')).body.items) },
  'text-plain-json': {
    exhibits: async (api) => (await api.get('/pets')).headers.get('content-type')!.startsWith('text/plain'),
  },
  'not-found-200-null': {
    exhibits: async (api) => {
      const missing = await api.get('/pets/999');
      return missing.status === 200 && missing.text === 'null';
    },
  },
  'not-found-400': { exhibits: async (api) => (await statusOf(api.get('/pets/999'))) === 400 },
  'name-truncated': {
    exhibits: async (api) => (await api.post({ ...rex, name: 'Maximilian' })).body.name === 'Maximili',
  },
  'categoryid-missing-in-list': { exhibits: async (api) => !('categoryId' in (await api.get('/pets')).body[0]) },
  'getpet-wrong-pet': { exhibits: async (api) => (await api.get('/pets/2')).body.id === 1 },
  'pending-rejected': { exhibits: async (api) => (await statusOf(api.post({ ...rex, status: 'pending' }))) === 400 },
  'max-limit-rejected': { exhibits: async (api) => (await statusOf(api.get('/pets?limit=100'))) === 400 },
  'key-case-insensitive': {
    exhibits: async (api) => (await statusOf(api.get('/pets', { auth: 'Bearer REF-KEY' }))) === 200,
  },
  'key-prefix': {
    exhibits: async (api) => (await statusOf(api.get('/pets', { auth: 'Bearer ref-key-and-more' }))) === 200,
  },
  'charset-rejected': {
    exhibits: async (api) =>
      (await statusOf(api.post(rex, { contentType: 'application/json; charset=utf-8' }))) === 400,
  },
  // Data fidelity, collection invariants, identifier lifecycle.
  'name-nfc-normalised': {
    exhibits: async (api) => (await api.post({ ...rex, name: 'Cafe\u0301' })).body.name === 'Caf\u00e9',
  },
  'name-control-stripped': { exhibits: async (api) => (await api.post({ ...rex, name: 'a\tb' })).body.name === 'ab' },
  'name-truncated-255': {
    exhibits: async (api) => (await api.post({ ...rex, name: 'x'.repeat(300) })).body.name.length === 255,
  },
  'name-astral-replaced': {
    exhibits: async (api) => (await api.post({ ...rex, name: 'Rex 🐕' })).body.name === 'Rex ?',
  },
  'name-html-escaped': {
    exhibits: async (api) => (await api.post({ ...rex, name: '<b>' })).body.name === '&lt;b&gt;',
  },
  'name-trimmed': { exhibits: async (api) => (await api.post({ ...rex, name: ' Rex ' })).body.name === 'Rex' },
  'list-backslash-unescaped': {
    exhibits: async (api) => {
      await api.post({ ...rex, name: 'C:\\new' });
      return (await api.get('/pets')).body.at(-1).name === 'C:\new';
    },
  },
  'categoryid-negative-via-double': {
    exhibits: async (api) =>
      (await api.post('{"name":"Rex","categoryId":-9007199254740993}')).text.includes('-9007199254740992'),
  },
  'page-boundary-skip': { seedPets: 5, exhibits: async (api) => idsOf(await api.get('/pets?limit=2')) === '1,3' },
  'filter-skips-first': { exhibits: async (api) => idsOf(await api.get('/pets?status=available')) === '' },
  'filtered-default-limit-10': {
    seedPets: 60,
    exhibits: async (api) => (await api.get('/pets?status=available')).body.length === 10,
  },
  'list-categoryid-misaligned': { exhibits: async (api) => (await api.get('/pets')).body[1].categoryId === 1 },
  'list-order-unstable': {
    exhibits: async (api) => idsOf(await api.get('/pets')) !== idsOf(await api.get('/pets')),
  },
  // Behind by 25 writes whatever the time: hidden after 24 more creates, listed after the 25th.
  'list-replica-lag': {
    exhibits: async (api) => {
      const created = String((await api.post(rex)).body.id);
      const listed = async () =>
        idsOf(await api.get('/pets?limit=100'))
          .split(',')
          .includes(created);
      for (let more = 0; more < 24; more += 1) await api.post(rex);
      const hidden = !(await listed());
      await api.post(rex);
      return hidden && (await listed());
    },
  },
  'petid-max-500': { exhibits: async (api) => (await statusOf(api.get('/pets/9223372036854775807'))) === 500 },
  'petid-non-latin-500': { exhibits: async (api) => (await statusOf(api.get('/pets/%D0%BA%D0%BE%D1%82'))) === 500 },
  'petid-unicode-digits': { exhibits: async (api) => (await api.get('/pets/%D9%A1')).body?.id === 1 },
  'negative-id-wraps': { exhibits: async (api) => (await statusOf(api.get('/pets/0'))) === 200 },
  'location-next-id': {
    exhibits: async (api) => {
      const created = await api.post(rex);
      return created.headers.get('location') === `/v1/pets/${created.body.id + 1}`;
    },
  },
  'ids-recycled': { seedPets: 100, exhibits: async (api) => (await api.post(rex)).body.id === 1 },
  'pets-evicted': {
    seedPets: 100,
    exhibits: async (api) => {
      await api.post(rex);
      return (await statusOf(api.get('/pets/1'))) === 404;
    },
  },
  // Authentication, near-miss input, deprecation, intermittent faults.
  'auth-scheme-case-sensitive': {
    exhibits: async (api) => (await statusOf(api.get('/pets', { auth: 'bearer ref-key' }))) === 401,
  },
  'auth-single-space': {
    exhibits: async (api) => (await statusOf(api.get('/pets', { auth: 'Bearer  ref-key' }))) === 401,
  },
  'key-prefix-compared': {
    exhibits: async (api) => (await statusOf(api.get('/pets', { auth: 'Bearer ref-ke' }))) === 200,
  },
  'scheme-ignored': {
    exhibits: async (api) => (await statusOf(api.get('/pets', { auth: 'Basic ref-key' }))) === 200,
  },
  'no-www-authenticate': {
    exhibits: async (api) => {
      const refused = await api.get('/pets', noAuth);
      return refused.status === 401 && refused.headers.get('www-authenticate') === null;
    },
  },
  'www-authenticate-basic': {
    exhibits: async (api) =>
      (await api.get('/pets', noAuth)).headers.get('www-authenticate')?.startsWith('Basic') === true,
  },
  'wrong-key-403': {
    exhibits: async (api) => (await statusOf(api.get('/pets', { auth: 'Bearer wrong' }))) === 403,
  },
  'validation-before-auth': {
    exhibits: async (api) => (await statusOf(api.post({ categoryId: 1 }, noAuth))) === 400,
  },
  'status-enum-case-insensitive': {
    exhibits: async (api) => (await statusOf(api.post({ ...rex, status: 'Available' }))) === 201,
  },
  'status-empty-accepted': { exhibits: async (api) => (await statusOf(api.post({ ...rex, status: '' }))) === 201 },
  'status-null-accepted': { exhibits: async (api) => (await statusOf(api.post({ ...rex, status: null }))) === 201 },
  'categoryid-boolean-coerced': {
    exhibits: async (api) => (await api.post({ name: 'Rex', categoryId: true })).body.categoryId === 1,
  },
  'categoryid-array-unwrapped': {
    exhibits: async (api) => (await api.post({ name: 'Rex', categoryId: [7] })).body.categoryId === 7,
  },
  'categoryid-1e400-500': {
    exhibits: async (api) => (await statusOf(api.post('{"name":"Rex","categoryId":1e400}'))) === 500,
  },
  'int64-overflow-wrapped': {
    exhibits: async (api) =>
      (await api.post('{"name":"Rex","categoryId":9223372036854775808}')).text.includes(
        '"categoryId":-9223372036854775808',
      ),
  },
  'media-type-case-sensitive': {
    exhibits: async (api) => (await statusOf(api.post(rex, { contentType: 'Application/JSON' }))) === 400,
  },
  'charset-case-sensitive': {
    exhibits: async (api) =>
      (await statusOf(api.post(rex, { contentType: 'application/json; Charset=UTF-8' }))) === 400,
  },
  'sunset-wrong-date': {
    exhibits: async (api) => (await api.get('/pets/1')).headers.get('sunset') === 'Thu, 04 Dec 2030 23:00:00 GMT',
  },
  'sunset-not-http-date': {
    exhibits: async (api) => (await api.get('/pets/1')).headers.get('sunset') === '2030-12-05',
  },
  'deprecation-on-listpets': {
    exhibits: async (api) => (await api.get('/pets')).headers.get('deprecation') !== null,
  },
  'intermittent-500': {
    exhibits: async (api) => {
      const statuses = [];
      for (let index = 0; index < 7; index += 1) statuses.push(await statusOf(api.get('/pets')));
      return statuses.includes(500);
    },
  },
};

describe('faults', () => {
  it('has exactly one probe per fault, and unique fault names', () => {
    const names = FAULTS.map((fault) => fault.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(FAULT_PROBES).sort()).toEqual([...names].sort());
  });

  it.each(FAULTS)('$name: $description', async ({ name }) => {
    const { seedPets, exhibits } = FAULT_PROBES[name];
    expect(await withServer({ fault: name, seedPets }, exhibits)).toBe(true);
    expect(await withServer({ seedPets }, exhibits)).toBe(false);
  });

  it('refuses an unknown fault name', async () => {
    await expect(startReferencePetstore({ fault: 'typo' as Fault })).rejects.toThrow(/Unknown fault/);
  });
});
