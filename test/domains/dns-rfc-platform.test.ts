// The platform resolver (the one the verifier and the CA ask) over real DNS: `kennel serve
// --platform-dns-port` answers as it, `--dns-port` as the public resolver, each with its own cache.
import { Packet, UDPClient } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ dnsPort: 0, platformDnsPort: 0 });
});
afterAll(() => mock.close());

const ask = (port: number, name: string, type: string) => UDPClient({ dns: '127.0.0.1', port })(name, type);

async function call(method: string, path: string, body?: unknown): Promise<number> {
  const response = await fetch(`${mock.origin}/__kennel/world${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('the platform resolver over DNS', () => {
  it('listens on its own port, UDP and TCP, as a recursive resolver', async () => {
    const platform = mock.world!.platformDns()!;
    expect(platform.port).toBeGreaterThan(0);
    expect(platform.port).not.toBe(mock.dns!.port);
    const response = await ask(platform.port, 'example.com', 'SOA');
    expect(response.header).toMatchObject({ aa: 0, ra: 1 });
  });

  it('keeps a cache apart from the public resolver', async () => {
    expect(await call('POST', '/reset')).toBe(200);
    const platformPort = mock.world!.platformDns()!.port;
    // Only the platform resolver learns the name does not exist...
    expect((await ask(platformPort, 'split.example.org', 'A')).header.rcode).toBe(Packet.RCODE.NXDOMAIN);
    expect(await call('POST', '/records', { name: 'split.example.org', type: 'A', value: '203.0.113.81' })).toBe(201);
    expect(await call('POST', '/clock/advance', { by: '10m' })).toBe(200);
    // ...so once the record is published the public resolver answers it while the platform one
    // still serves its cached NXDOMAIN.
    const fromPublic = await ask(mock.dns!.port, 'split.example.org', 'A');
    expect(fromPublic.answers.map((record) => record.address)).toEqual(['203.0.113.81']);
    const fromPlatform = await ask(platformPort, 'split.example.org', 'A');
    expect(fromPlatform.header.rcode).toBe(Packet.RCODE.NXDOMAIN);
  });
});
