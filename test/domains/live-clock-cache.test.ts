import { Packet, UDPClient } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld } from '../helpers/world-client.js';

// The live world's clock moved to what happens next, and its resolvers' caches flushed, over the
// real control API and the real DNS server.
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ dnsPort: 0 });
});
afterAll(() => mock.close());

const call = (method: string, path: string, body?: unknown) => callWorld(mock.origin, method, path, body);

const udp = (name: string, type: string) => UDPClient({ dns: '127.0.0.1', port: mock.dns!.port })(name, type);
const CNAME = { name: 'docs.example.com', type: 'CNAME', value: 'petstore-docs.kennel-pages.dev', ttl: 3600 };

describe('advance the clock until something happens', () => {
  it('next-event: to the record being published, then to the first certificate attempt', async () => {
    await call('POST', '/reset');
    const start = Date.parse((await call('GET', '/state')).body.now);
    expect((await call('POST', '/domains', { name: 'docs.example.com' })).status).toBe(201);
    const saved = (await call('POST', '/records', CNAME)).body;
    const published = await call('POST', '/clock/advance', { until: 'next-event' });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ until: 'next-event', event: 'record', now: saved.visibleAt });
    expect(Date.parse(published.body.now) - start).toBeGreaterThan(0);
    expect((await call('POST', '/domains/docs.example.com/verify')).body.dns.state).toBe('verified');
    const attempt = await call('POST', '/clock/advance', { until: 'next-event' });
    expect(attempt.body).toMatchObject({ event: 'certificate', by: expect.stringMatching(/^\d+m(\d+s)?$|^\d+s$/) });
    expect((await call('GET', '/domains/docs.example.com')).body.certificate.state).toBe('issued');
  });

  it('next-event with nothing scheduled → 409 nothing_scheduled', async () => {
    await call('POST', '/reset');
    const result = await call('POST', '/clock/advance', { until: 'next-event' });
    expect(result).toMatchObject({ status: 409, body: { code: 'nothing_scheduled' } });
  });

  it('certificate-issued: moves just far enough for the certificate', async () => {
    await call('POST', '/reset');
    await call('POST', '/domains', { name: 'docs.example.com' });
    await call('POST', '/records', CNAME);
    await call('POST', '/clock/advance', { by: '1m' });
    await call('POST', '/domains/docs.example.com/verify');
    const before = Date.parse((await call('GET', '/state')).body.now);
    const issued = await call('POST', '/clock/advance', { until: 'certificate-issued', domain: 'docs.example.com' });
    expect(issued.status).toBe(200);
    expect(issued.body.certificate).toEqual({ state: 'issued', reason: 'issued' });
    const moved = Date.parse(issued.body.now) - before;
    expect(moved).toBeGreaterThanOrEqual(60_000);
    expect(moved).toBeLessThanOrEqual(5 * 60_000);
    const again = await call('POST', '/clock/advance', { until: 'certificate-issued', domain: 'docs.example.com' });
    expect(again.body).toMatchObject({ by: '0s', certificate: { state: 'issued' } });
  });

  it('certificate-issued when CAA blocks it: stops when the retries give up, and says so', async () => {
    const loaded = await call('POST', '/scenario', { name: 'caa-blocks-issuance', upTo: 'timed out' });
    expect(loaded.status).toBe(200);
    const result = await call('POST', '/clock/advance', { until: 'certificate-issued', domain: 'docs.example.com' });
    expect(result.status).toBe(200);
    expect(result.body.certificate).toEqual({ state: 'failed', reason: 'gave_up' });
  });

  it.each([
    [{ until: 'certificate-issued', domain: 'docs.example.com' }, 409, 'certificate_not_pending'],
    [{ until: 'certificate-issued', domain: 'nowhere.example.com' }, 404, 'domain_not_found'],
    [{ until: 'certificate-issued' }, 400, 'invalid_body'],
    [{ until: 'soon' }, 400, 'invalid_body'],
    [{ by: '1m', until: 'next-event' }, 400, 'invalid_body'],
  ])('%j → %i %s', async (body, status, code) => {
    await call('POST', '/reset');
    await call('POST', '/domains', { name: 'docs.example.com' });
    const before = (await call('GET', '/state')).body.now;
    expect(await call('POST', '/clock/advance', body)).toMatchObject({ status, body: { code } });
    expect((await call('GET', '/state')).body.now).toBe(before);
  });
});

describe('flush the resolvers caches', () => {
  it('a cached NXDOMAIN is gone after a flush: the fix is visible at once over real DNS', async () => {
    await call('POST', '/reset');
    expect((await udp('fixed.example.com', 'A')).header.rcode).toBe(Packet.RCODE.NXDOMAIN);
    await call('POST', '/records', { name: 'fixed.example.com', type: 'A', value: '203.0.113.7' });
    await call('POST', '/clock/advance', { until: 'next-event' });
    expect((await udp('fixed.example.com', 'A')).header.rcode, 'still cached').toBe(Packet.RCODE.NXDOMAIN);
    const flushed = await call('POST', '/dns/flush');
    expect(flushed.status).toBe(200);
    expect(flushed.body.flushed).toEqual(
      expect.arrayContaining([
        { resolver: 'public', entries: expect.any(Number) },
        { resolver: 'platform', entries: expect.any(Number) },
      ]),
    );
    expect(
      flushed.body.flushed.find((entry: { resolver: string }) => entry.resolver === 'public').entries,
    ).toBeGreaterThan(0);
    const answer = await udp('fixed.example.com', 'A');
    expect(answer.header.rcode).toBe(Packet.RCODE.NOERROR);
    expect(answer.answers.map((record) => (record as { address?: string }).address)).toEqual(['203.0.113.7']);
  });
});
