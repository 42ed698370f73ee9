import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveWorld } from '../../src/domains/live/live-world.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld } from '../helpers/world-client.js';

// The control API refuses writes to the platform's own zone with the stable code platform_zone.
let mock: RunningMock;
let live: LiveWorld;

beforeAll(async () => {
  mock = await startMock({});
  live = await mock.world!.start();
});
afterAll(() => mock.close());

const call = (method: string, path: string, body?: unknown) => callWorld(mock.origin, method, path, body);

describe('the platform zone over the control API', () => {
  it('POST /records at the platform host is refused with platform_zone', async () => {
    const host = `${live.projectId}.${live.simulator.platform.domain}`;
    const refused = await call('POST', '/records', {
      name: host,
      type: 'CAA',
      value: { flags: 0, tag: 'issue', value: 'nobody.example' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'platform_zone' });
  });

  it('DELETE /records/{id} of a platform address is refused with platform_zone, and the address stays', async () => {
    const platformZone = live.simulator.zones.zoneFor(live.simulator.platform.domain)!;
    const address = live.simulator.zones.saved(platformZone).find((record) => record.type === 'A')!;
    const refused = await call('DELETE', `/records/${address.id}`);
    expect(refused.body).toMatchObject({ code: 'platform_zone' });
    expect(refused.status).toBe(409);
    expect(live.simulator.zones.record(address.id)).toBeDefined();
  });
});

describe('record names users really have, over the control API', () => {
  it('a wildcard A and a _dmarc TXT record are saved, and a misplaced * or a bad service label is refused', async () => {
    const apex = live.simulator.zones.list().find((zone) => zone.apex === 'example.com')!.apex;
    const wildcard = await call('POST', '/records', { name: `*.${apex}`, type: 'A', value: '192.0.2.7' });
    expect(wildcard.status).toBe(201);
    expect(wildcard.body).toMatchObject({ name: `*.${apex}`, type: 'A' });
    const dmarc = await call('POST', '/records', { name: `_dmarc.${apex}`, type: 'TXT', value: 'v=DMARC1; p=none' });
    expect(dmarc.status).toBe(201);
    const misplaced = await call('POST', '/records', { name: `docs.*.${apex}`, type: 'A', value: '192.0.2.7' });
    expect(misplaced.status).toBe(400);
    const spaced = await call('POST', '/records', { name: `bad label.${apex}`, type: 'A', value: '192.0.2.7' });
    expect(spaced.status).toBe(400);
  });
});

describe('DELETE /records/{id} over the control API', () => {
  it('says when the name servers stop answering (the publish delay), and they answer until then', async () => {
    const added = await call('POST', '/records', { name: 'gone.example.com', type: 'A', value: '192.0.2.44', ttl: 60 });
    expect(added.status).toBe(201);
    await call('POST', '/clock/advance', { by: '1m' });
    const removed = await call('DELETE', `/records/${added.body.id}`);
    expect(removed.status).toBe(200);
    const now = live.simulator.now;
    // example.com is at flexdns, whose name servers publish changes after 30 s.
    expect(Date.parse(removed.body.goneAt)).toBe(now + 30_000);
    const before = await call('GET', '/dns/query?name=gone.example.com&type=A&resolver=platform');
    expect(before.body.answers.map((answer: { text: string }) => answer.text)).toEqual([
      'gone.example.com 60 A 192.0.2.44',
    ]);
    await call('POST', '/clock/advance', { by: '31s' });
    await call('POST', '/dns/flush');
    const after = await call('GET', '/dns/query?name=gone.example.com&type=A&resolver=platform');
    // (an earlier test's *.example.com A may answer instead, never the removed address)
    expect(after.body.answers.map((answer: { text: string }) => answer.text)).not.toContain(
      'gone.example.com 60 A 192.0.2.44',
    );
  });
});
