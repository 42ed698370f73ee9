import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { packageFile } from '../../src/assets.js';
import { WORLD_LIMITS } from '../../src/domains/sim/model.js';
import { controlResponder } from '../../src/domains/live/control-api.js';
import type { LiveWorld } from '../../src/domains/live/live-world.js';
import { compileOperation } from '../../src/mock/compiled-operation.js';
import type { RequestContext } from '../../src/http/responder.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load.js';
import { jsonMediaType, responseFor } from '../../src/openapi/operations.js';
import { SchemaValidators } from '../../src/openapi/validators.js';

// Hostile and extreme requests to the control API: each is answered with a 2xx or a 4xx Error
// body, and the world keeps answering every read with a conforming 200 afterwards.
let mock: RunningMock;
let live: LiveWorld;
let spec: LoadedDocument;
let validators: SchemaValidators;
let world: string;

beforeAll(async () => {
  mock = await startMock({});
  live = await mock.world!.start();
  spec = await loadDocument(packageFile('spec/domains.yaml'));
  validators = new SchemaValidators(spec.document);
  world = `${mock.origin}/__kennel/world`;
});
afterAll(() => mock.close());
beforeEach(async () => {
  await call('POST', '/reset');
});

interface Answer {
  status: number;
  body: any;
  text: string;
}

/** A request; a string body is sent as it is (JSON.stringify would drop a `__proto__` key). */
async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${world}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}

function expectError(answer: Answer, statuses: number[]): void {
  expect(statuses, answer.text).toContain(answer.status);
  expect(answer.body).toEqual({ code: expect.any(String), message: expect.any(String), status: answer.status });
}

/** Every read of the control API answers 200 with a body its schema accepts. */
async function expectHealthyReads(): Promise<void> {
  const reads: [string, string][] = [
    ['getWorld', '/state'],
    ['listDomains', '/domains'],
    ['listZones', '/zones'],
    ['listRecords', '/records'],
    ['listHistory', '/history'],
    ['queryDns', '/dns/query?name=docs.example.com&type=A'],
    ['serveSite', `/site?url=${encodeURIComponent('https://docs.example.com/')}`],
  ];
  for (const [operationId, path] of reads) {
    const answer = await call('GET', path);
    expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    const operation = spec.operations.find((candidate) => candidate.operationId === operationId)!;
    const schema = jsonMediaType(responseFor(operation, 200)!.content)!.schema!;
    expect(validators.at(schema.pointer)(answer.body), `${path} conforms`).toEqual([]);
  }
}

/** What the world holds, for "changed nothing" (records, zones, domains, project, clock). */
async function snapshot(): Promise<string[]> {
  return Promise.all(['/state', '/records', '/zones'].map(async (path) => (await call('GET', path)).text));
}

describe('the clock: POST /clock/advance', () => {
  it.each(['99999999999999999999d', '3651d', '87601h', '3650d1ms'])(
    '%s → 400 invalid_duration, the clock unchanged',
    async (by) => {
      const before = await snapshot();
      const answer = await call('POST', '/clock/advance', { by });
      expectError(answer, [400]);
      expect(answer.body.code).toBe('invalid_duration');
      expect(await snapshot()).toEqual(before);
      await expectHealthyReads();
    },
  );

  it('3650d (10 years) is accepted, and the world still answers', async () => {
    const before = Date.parse((await call('GET', '/state')).body.now);
    const answer = await call('POST', '/clock/advance', { by: '3650d' });
    expect(answer.status).toBe(200);
    expect(Date.parse(answer.body.now) - before).toBe(3650 * 86_400_000);
    await expectHealthyReads();
  });

  it('past 9000-01-01 → 409 clock_limit, the clock unchanged', async () => {
    // Set-up only: bring the live clock near its last instant without 700 requests.
    live.simulator.advance(Date.UTC(8999, 11, 31) - live.simulator.now);
    const before = await snapshot();
    const answer = await call('POST', '/clock/advance', { by: '2d' });
    expectError(answer, [409]);
    expect(answer.body.code).toBe('clock_limit');
    expect(await snapshot()).toEqual(before);
    await expectHealthyReads();
  });
});

describe('bodies with a __proto__ key get a 4xx Error and change nothing', () => {
  it.each([
    ['POST', '/domains', '{"__proto__":{"name":"docs.example.com"}}'],
    ['PATCH', '/project', '{"__proto__":{"plan":"free"}}'],
    ['PATCH', '/project', '{"__proto__":{"deployed":false}}'],
    ['PUT', '/primary', '{"__proto__":{"name":"docs.example.com"}}'],
    ['POST', '/redirects', '{"__proto__":{"from":"a.example.com","to":"b.example.com"}}'],
    ['POST', '/zones', '{"__proto__":{"apex":"example.info","provider":"flexdns"}}'],
    ['PUT', '/zones/example.com/failing', '{"__proto__":{"types":["*"]}}'],
    ['POST', '/records', '{"__proto__":{"name":"www.example.com","type":"A","value":"192.0.2.1"}}'],
    ['POST', '/records', '{"name":"www.example.com","__proto__":{"type":"A","value":"192.0.2.1"}}'],
    [
      'POST',
      '/records',
      '{"name":"example.com","type":"CAA","value":{"__proto__":{"flags":0,"tag":"issue","value":"x"}}}',
    ],
    ['POST', '/clock/advance', '{"__proto__":{"by":"1h"}}'],
    ['POST', '/scenario', '{"__proto__":{"name":"caa-blocks-issuance"}}'],
  ])('%s %s %s', async (method, path, body) => {
    // Attach two domains first, so that /primary and /redirects would have something to change.
    for (const name of ['a.example.com', 'b.example.com', 'docs.example.com'])
      expect((await call('POST', '/domains', { name })).status).toBe(201);
    const before = await snapshot();
    expectError(await call(method, path, body), [400, 404, 409, 413, 415, 422]);
    expect(await snapshot()).toEqual(before);
    await expectHealthyReads();
  });
});

describe('handlers read body fields as own properties, never through a prototype', () => {
  // Whatever the JSON parser and validator let through, a handler must not act on inherited fields.
  it.each([
    ['addDomain', {}, { name: 'docs.example.com' }],
    ['updateProject', {}, { plan: 'free' }],
    ['updateProject', {}, { deployed: false }],
    ['addZone', {}, { apex: 'example.info', provider: 'flexdns' }],
    ['setZoneFailures', { apex: 'example.com' }, { types: ['*'] }],
    ['addRecord', {}, { name: 'www.example.com', type: 'A', value: '192.0.2.1' }],
    ['advanceClock', {}, { by: '1h' }],
    ['loadScenario', {}, { name: 'caa-blocks-issuance' }],
  ])('%s with %j and the body %j only inherited → 400, nothing changed', async (operationId, path, inherited) => {
    const operation = spec.operations.find((candidate) => candidate.operationId === operationId)!;
    const compiled = compileOperation(spec, validators, operation);
    const value: unknown = Object.create(inherited);
    const input = { path, query: {}, headers: {}, body: { text: '{}', value, present: true } };
    const before = await snapshot();
    const respond = controlResponder(live);
    await expect(Promise.resolve().then(() => respond(compiled, input, {} as RequestContext))).rejects.toMatchObject({
      status: 400,
    });
    expect(await snapshot()).toEqual(before);
  });
});

describe('limits: a live world holds a bounded number of things', () => {
  it('the 101st zone → 409 zone_limit', async () => {
    const zones = (await call('GET', '/zones')).body.length as number;
    for (let index = zones; index < WORLD_LIMITS.zones; index += 1)
      expect(live.simulator.addZone(`zone${index}.example`, 'flexdns').ok).toBe(true);
    const answer = await call('POST', '/zones', { apex: 'one-more.example', provider: 'flexdns' });
    expectError(answer, [409]);
    expect(answer.body.code).toBe('zone_limit');
    await expectHealthyReads();
  });

  it('the record past the limit → 409 record_limit; removing one makes room', async () => {
    while (live.simulator.zones.recordCount() < WORLD_LIMITS.records)
      expect(
        live.simulator.addRecord({ name: 'example.com', type: 'TXT', data: `r${live.simulator.zones.recordCount()}` })
          .ok,
      ).toBe(true);
    const refused = await call('POST', '/records', { name: 'www.example.com', type: 'A', value: '192.0.2.1' });
    expectError(refused, [409]);
    expect(refused.body.code).toBe('record_limit');
    const someone = (await call('GET', '/records')).body[0];
    expect((await call('DELETE', `/records/${someone.id}`)).status).toBe(200);
    expect((await call('POST', '/records', { name: 'www.example.com', type: 'A', value: '192.0.2.1' })).status).toBe(
      201,
    );
    await expectHealthyReads();
  });

  it('the 101st custom domain → 409 domain_limit', async () => {
    for (let index = 0; index < WORLD_LIMITS.domainsPerProject; index += 1)
      expect(live.simulator.addDomain(live.projectId, `d${index}.example.com`).ok).toBe(true);
    const answer = await call('POST', '/domains', { name: 'one-more.example.com' });
    expectError(answer, [409]);
    expect(answer.body.code).toBe('domain_limit');
    await expectHealthyReads();
  });

  it.each([
    [{ name: 'example.com', type: 'TXT', value: 'x'.repeat(4001) }],
    [{ name: 'example.com', type: 'CAA', value: { flags: 0, tag: 'issue', value: 'x'.repeat(4001) } }],
    [{ name: 'example.com', type: 'TXT', value: 'x', ttl: 604_801 }],
    [{ name: 'example.com', type: 'TXT', value: 'x', ttl: 1e300 }],
    [{ name: 'example.com', type: 'MX', value: { preference: 65_536, exchange: 'mail.example.com' } }],
  ])('an oversized record value or TTL → 400: %j', async (record) => {
    const before = await snapshot();
    expectError(await call('POST', '/records', record), [400]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('extreme but valid requests leave a world that answers', () => {
  it('largest values, plan and deploy toggled around a domain with a certificate, ten years on', async () => {
    for (const record of [
      { name: 'example.com', type: 'TXT', value: 'x'.repeat(4000), ttl: 604_800 },
      {
        name: 'example.com',
        type: 'CAA',
        value: { flags: 255, tag: 'issue', value: `letsencrypt.org${' '.repeat(3985)}` },
      },
      { name: 'example.com', type: 'MX', value: { preference: 65_535, exchange: 'mail.example.com' } },
      { name: 'docs.example.com', type: 'CNAME', value: 'petstore-docs.kennel-pages.dev', ttl: 1 },
    ])
      expect((await call('POST', '/records', record)).status, JSON.stringify(record).slice(0, 80)).toBe(201);
    expect((await call('POST', '/domains', { name: 'docs.example.com' })).status).toBe(201);
    await call('POST', '/clock/advance', { by: '1m' });
    expect((await call('POST', '/domains/docs.example.com/verify')).status).toBe(200);
    for (const update of [{ plan: 'free' }, { deployed: false }, { plan: 'pro', deployed: true }, { plan: 'free' }]) {
      expect((await call('PATCH', '/project', update)).status).toBe(200);
      await call('POST', '/domains/docs.example.com/reverify');
      await call('POST', '/clock/advance', { by: '3650d' });
      await expectHealthyReads();
    }
    expect((await call('GET', '/domains/docs.example.com')).status).toBe(200);
  });
});
