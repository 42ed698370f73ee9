// The DNS query log over the control API: what a QA engineer filters to see who asked what.
import { UDPClient } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld } from '../helpers/world-client.js';

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ dnsPort: 0 });
  await mock.world!.start();
});
afterAll(() => mock.close());

const get = (path: string) => callWorld(mock.origin, 'GET', path);

describe('GET /dns/queries', () => {
  it('lists the questions the live DNS server and the control API answered, filtered by name, resolver and rcode', async () => {
    const dns = mock.world!.dns()!.port;
    const ask = UDPClient({ dns: '127.0.0.1', port: dns });
    await ask('Missing.Example.com', 'A');
    await get('/dns/query?name=missing.example.com&type=TXT&resolver=platform');
    await get('/dns/query?name=example.com&type=SOA');

    const missing = await get('/dns/queries?name=missing.example.com.');
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual([
      expect.objectContaining({ resolver: 'public', name: 'missing.example.com', type: 'A', rcode: 'NXDOMAIN' }),
      expect.objectContaining({ resolver: 'platform', name: 'missing.example.com', type: 'TXT', rcode: 'NXDOMAIN' }),
    ]);
    expect(missing.body[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const platform = await get('/dns/queries?name=missing.example.com&resolver=platform');
    expect(platform.body.map((entry: { type: string }) => entry.type)).toEqual(['TXT']);
    const failures = await get('/dns/queries?rcode=NXDOMAIN');
    expect(failures.body.every((entry: { rcode: string }) => entry.rcode === 'NXDOMAIN')).toBe(true);
    expect(failures.body.some((entry: { name: string }) => entry.name === 'example.com')).toBe(false);
  });

  it('refuses an rcode or resolver it does not know with 400', async () => {
    expect((await get('/dns/queries?rcode=WHATEVER')).status).toBe(400);
    expect((await get('/dns/queries?resolver=nobody')).status).toBe(400);
  });
});
