// The reference Pet Store behaves as the interface specification says, its variants differ only
// where the specification is silent, and every fault is really active: each fault's probe sees the
// violation on the mutant and does not see it on the correct server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, VARIANTS, startReferencePetstore, type Fault, type Variant } from './reference-petstore.js';
import { waitForValue, waitUntil } from '../helpers/wait.js';

interface Exchange {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

interface RequestOptions {
  /** The Authorization header; null sends none. Default: Bearer with the server's key. */
  auth?: string | null;
  /** A raw body; objects are JSON-encoded. */
  body?: string | object;
  contentType?: string;
}

interface Api {
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<Exchange>;
  get(path: string, options?: RequestOptions): Promise<Exchange>;
  post(body: string | object, options?: RequestOptions): Promise<Exchange>;
  close(): Promise<void>;
}

interface ServerOptions {
  fault?: Fault;
  variant?: Partial<Variant>;
  seedPets?: number;
}

async function start(options: ServerOptions = {}): Promise<Api> {
  const server = await startReferencePetstore(options);
  const request = async (
    method: string,
    path: string,
    { auth = `Bearer ${server.apiKey}`, body, contentType }: RequestOptions = {},
  ): Promise<Exchange> => {
    const headers: Record<string, string> = {};
    if (auth !== null) headers.authorization = auth;
    if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers,
      body: typeof body === 'object' ? JSON.stringify(body) : body,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: parseOrUndefined(text) };
  };
  return {
    url: server.url,
    request,
    get: (path, options) => request('GET', path, options),
    post: (body, options) => request('POST', '/pets', { ...options, body }),
    close: () => server.close(),
  };
}

function parseOrUndefined(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function withServer<T>(options: ServerOptions, use: (api: Api) => Promise<T>): Promise<T> {
  const api = await start(options);
  try {
    return await use(api);
  } finally {
    await api.close();
  }
}

function expectError(exchange: Exchange, status: number): void {
  expect(exchange.status).toBe(status);
  expect(exchange.headers.get('content-type')).toBe('application/json');
  expect(exchange.body).toEqual({ code: expect.any(String), message: expect.any(String), status });
}

const rex = { name: 'Rex', categoryId: 1 };

describe('the correct reference server', () => {
  let api: Api;
  beforeAll(async () => {
    api = await start();
  });
  afterAll(() => api.close());

  describe('authentication', () => {
    it.each([
      ['no header', null],
      ['a wrong key', 'Bearer nope'],
      ['the Basic scheme', `Basic ${btoa('user:ref-key')}`],
      ['no token', 'Bearer'],
    ])('answers 401 with an Error body for %s, on every operation', async (_label, auth) => {
      for (const exchange of [
        await api.get('/pets', { auth }),
        await api.post(rex, { auth }),
        await api.get('/pets/1', { auth }),
        await api.get('/store/orders', { auth }),
      ]) {
        expectError(exchange, 401);
      }
    });

    it('takes the scheme case-insensitively', async () => {
      expect((await api.get('/pets', { auth: 'bearer ref-key' })).status).toBe(200);
      expect((await api.get('/pets', { auth: 'BEARER ref-key' })).status).toBe(200);
    });
  });

  describe('listPets', () => {
    it('lists the seed pets in order, with the spec fields', async () => {
      const listed = await api.get('/pets');
      expect(listed.status).toBe(200);
      expect(listed.headers.get('content-type')).toBe('application/json');
      expect(listed.body.slice(0, 3)).toEqual([
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Tom', categoryId: 2, status: 'pending' },
        { id: 3, name: 'Bella', categoryId: 3, status: 'sold' },
      ]);
    });

    it('returns min(limit, matching) pets, 20 by default, at most 100', () =>
      withServer({ seedPets: 130 }, async (many) => {
        expect((await many.get('/pets')).body).toHaveLength(20);
        expect((await many.get('/pets?limit=1')).body).toHaveLength(1);
        expect((await many.get('/pets?limit=100')).body).toHaveLength(100);
        expect((await many.get('/pets?limit=100&status=sold')).body).toHaveLength(43);
      }));

    it('filters by status', async () => {
      const sold = await api.get('/pets?status=sold');
      expect(sold.body.map((pet: { name: string }) => pet.name)).toEqual(['Bella']);
    });

    it.each(['0', '101', '-1', 'abc', '1.5', ''])('answers 400 for limit=%s', async (limit) => {
      expectError(await api.get(`/pets?limit=${limit}`), 400);
    });

    it.each(['lost', 'SOLD', ''])('answers 400 for status=%s', async (status) => {
      expectError(await api.get(`/pets?status=${status}`), 400);
    });
  });

  describe('createPet and getPet', () => {
    it('stores the pet under a new increasing id, ignoring a client id and unknown fields', async () => {
      const first = await api.post({ name: 'Nala', categoryId: 2, status: 'pending', id: 1, colour: 'gold' });
      const second = await api.post({ name: 'Simba', categoryId: 2 });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ id: expect.any(Number), name: 'Nala', categoryId: 2, status: 'pending' });
      expect(first.body.id).not.toBe(1);
      expect(second.body.id).toBeGreaterThan(first.body.id);
      expect(second.body).not.toHaveProperty('status');
      const read = await api.get(`/pets/${first.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(first.body);
    });

    it('keeps int64 category ids exact', async () => {
      const created = await api.post('{"name":"Big","categoryId":9223372036854775807}');
      expect(created.text).toContain('"categoryId":9223372036854775807');
      expect((await api.get(`/pets/${created.body.id}`)).text).toContain('"categoryId":9223372036854775807');
      expect((await api.post('{"name":"Small","categoryId":-9223372036854775808}')).status).toBe(201);
    });

    it('accepts a charset parameter on the request', async () => {
      expect((await api.post(rex, { contentType: 'application/json; charset=utf-8' })).status).toBe(201);
    });

    it('gives concurrent creates distinct ids', async () => {
      const created = await Promise.all(Array.from({ length: 8 }, () => api.post(rex)));
      expect(new Set(created.map((exchange) => exchange.body.id)).size).toBe(8);
    });

    it.each([
      ['a missing name', { categoryId: 1 }, '/name'],
      ['a numeric name', { name: 5, categoryId: 1 }, '/name'],
      ['a missing categoryId', { name: 'Rex' }, '/categoryId'],
      ['a string categoryId', { name: 'Rex', categoryId: '7' }, '/categoryId'],
      ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }, '/categoryId'],
      ['a categoryId above int64', '{"name":"Rex","categoryId":9223372036854775808}', '/categoryId'],
      ['an unknown status', { ...rex, status: 'lost' }, '/status'],
      ['a null status', { ...rex, status: null }, '/status'],
      ['an array body', [], 'body'],
      ['malformed JSON', '{"name":', 'JSON'],
      ['an empty body', '', 'body'],
    ])('answers 400 naming the problem for %s', async (_label, body, named) => {
      const refused = await api.post(body);
      expectError(refused, 400);
      expect(refused.body.message).toContain(named);
    });

    it('answers 400 for a body that is not application/json', async () => {
      expectError(await api.post(rex, { contentType: 'text/plain' }), 400);
    });

    it('answers 404 for an unknown or non-integer pet id, with the deprecation headers', async () => {
      for (const path of ['/pets/999', '/pets/abc', '/pets/1.5', '/pets/99999999999999999999'])
        expectError(await api.get(path), 404);
      const read = await api.get('/pets/1');
      expect(read.headers.get('deprecation')).toBe('@1735689600');
      expect(read.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    });
  });

  describe('other paths', () => {
    it('answers [] for the store orders', async () => {
      const orders = await api.get('/store/orders');
      expect([orders.status, orders.body]).toEqual([200, []]);
    });

    it('answers 404 for an unknown path and 405 with Allow for a wrong method', async () => {
      expectError(await api.get('/owners'), 404);
      const deleted = await api.request('DELETE', '/pets');
      expectError(deleted, 405);
      expect(deleted.headers.get('allow')).toBe('GET, POST');
    });
  });
});

describe('variants', () => {
  it.each(VARIANTS)('$name: lists, creates and reads pets correctly', ({ variant }) =>
    withServer({ variant }, async (api) => {
      const created = await api.post({ name: 'Variant', categoryId: 4, status: 'sold' });
      expect(created.status).toBe(201);
      const id = /"id":(\d+)/.exec(created.text)?.[1];
      const read = await api.get(`/pets/${id}`);
      expect([read.status, read.text]).toEqual([200, created.text]);
      // A lagging list shows the pet once the lag has passed; any other lists it at once.
      const listed = variant.listLagMs
        ? await waitForValue(
            async () => {
              const answer = await api.get('/pets?status=sold');
              return answer.text.includes(created.text) ? answer : undefined;
            },
            () => `GET /pets?status=sold to list ${created.text}`,
          )
        : await api.get('/pets?status=sold');
      expect(listed.status).toBe(200);
      expect(listed.text).toContain(created.text);
      expect((await api.get('/pets?status=lost')).status).toBe(400);
      expect((await api.get('/pets', { auth: null })).status).toBe(401);
    }),
  );

  it('list-lag lists a new pet only once the lag has passed', () =>
    withServer({ variant: { listLagMs: 200 } }, async (api) => {
      const beforeCreate = Date.now();
      const created = await api.post({ name: 'Lagging', categoryId: 4, status: 'sold' });
      expect((await api.get('/pets?status=sold')).text).not.toContain(created.text);
      await waitUntil(
        async () => (await api.get('/pets?status=sold')).text.includes(created.text),
        () => `the list to show ${created.text} after the 200 ms lag`,
      );
      expect(Date.now() - beforeCreate).toBeGreaterThanOrEqual(200);
    }));

  it('clamp-limit clamps limit into 1..100 and uses 20 for a non-numeric one', () =>
    withServer({ variant: { badLimit: 'clamp' }, seedPets: 120 }, async (api) => {
      expect((await api.get('/pets?limit=0')).body).toHaveLength(1);
      expect((await api.get('/pets?limit=1000')).body).toHaveLength(100);
      expect((await api.get('/pets?limit=abc')).body).toHaveLength(20);
    }));

  it('charset-and-large-ids emits ids above 2^53 exactly and reads them back', () =>
    withServer({ variant: { charset: true, ids: 'large' } }, async (api) => {
      const listed = await api.get('/pets');
      expect(listed.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(listed.text).toMatch(/^\[\{"id":9007199254740993,"name":"Rex"/);
      const created = await api.post(rex);
      expect(created.text).toMatch(/^\{"id":9007199254740996,/);
      expect((await api.get('/pets/9007199254740996')).text).toBe(created.text);
      expect((await api.get('/pets/9007199254740995')).text).toContain('"name":"Bella"');
    }));

  it('default-status stores a pet created without status as available', () =>
    withServer({ variant: { defaultStatus: 'available' } }, async (api) => {
      const created = await api.post(rex);
      expect((await api.get(`/pets/${created.body.id}`)).body.status).toBe('available');
    }));

  it('refuse-client-id refuses a client id; newest-first lists the newest first', async () => {
    await withServer({ variant: { clientId: 'refuse' } }, async (api) =>
      expectError(await api.post({ ...rex, id: 9 }), 400),
    );
    await withServer({ variant: { order: 'newest-first' } }, async (api) =>
      expect((await api.get('/pets')).body[0].id).toBe(3),
    );
  });

  it('bad-petid-400, content-type-415, orders-501, orders-404 and no-deprecation-headers answer as chosen', async () => {
    await withServer({ variant: { badPetId: 400 } }, async (api) => expectError(await api.get('/pets/abc'), 400));
    await withServer({ variant: { wrongContentType: 415 } }, async (api) =>
      expectError(await api.post(rex, { contentType: 'text/plain' }), 415),
    );
    await withServer({ variant: { storeOrders: 501 } }, async (api) =>
      expectError(await api.get('/store/orders'), 501),
    );
    await withServer({ variant: { storeOrders: 404 } }, async (api) =>
      expectError(await api.get('/store/orders'), 404),
    );
    await withServer({ variant: { deprecationHeaders: false } }, async (api) => {
      const read = await api.get('/pets/1');
      expect([read.status, read.headers.get('deprecation'), read.headers.get('sunset')]).toEqual([200, null, null]);
    });
  });
});

// ---------------------------------------------------------------------------------------------
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
  'list-replica-lag': {
    exhibits: async (api) => {
      const created = await api.post(rex);
      return !idsOf(await api.get('/pets'))
        .split(',')
        .includes(String(created.body.id));
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
