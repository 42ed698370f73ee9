import { Resolver } from 'node:dns/promises';
import { connect } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { Packet, TCPClient, UDPClient } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageFile } from '../../src/assets.js';
import { runContract } from '../../src/contract/run/runner.js';
import { CONTROL_OPERATIONS } from '../../src/domains/live/control-api.js';
import { loadDocument } from '../../src/openapi/load.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';

// The live world against real listeners: control API over HTTP, DNS over UDP and TCP, HTTPS with SNI.
let mock: RunningMock;
let world: string;
let resolver: Resolver;

beforeAll(async () => {
  mock = await startMock({ dnsPort: 0, sitePort: 0 });
  world = `${mock.origin}/__kennel/world`;
  resolver = new Resolver();
  resolver.setServers([`127.0.0.1:${mock.dns!.port}`]);
});
afterAll(() => mock.close());

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(`${world}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}

const advance = (by: string) => call('POST', '/clock/advance', { by });
const udp = (name: string, type: string) => UDPClient({ dns: '127.0.0.1', port: mock.dns!.port })(name, type);
const tcp = (name: string, type: string) => TCPClient({ dns: '127.0.0.1', port: mock.dns!.port })(name, type);

describe('real DNS from the live world', () => {
  it('answers below a DNAME with the DNAME, the synthesised CNAME and the target (RFC 6672), over UDP', async () => {
    await call('POST', '/reset');
    await call('POST', '/records', { name: 'old.example.com', type: 'DNAME', value: 'docs-host.example.net' });
    await call('POST', '/records', { name: 'www.docs-host.example.net', type: 'A', value: '203.0.113.50' });
    await advance('1m');
    const response = await udp('www.old.example.com', 'A');
    expect(response.header.rcode).toBe(Packet.RCODE.NOERROR);
    expect(response.answers.map((record) => [record.name, record.type])).toEqual([
      ['old.example.com', 39],
      ['www.old.example.com', Packet.TYPE.CNAME],
      ['www.docs-host.example.net', Packet.TYPE.A],
    ]);
  });

  it('answers a record added through the control API once propagated, and not before (UDP and TCP)', async () => {
    expect((await call('POST', '/reset')).status).toBe(200);
    const added = await call('POST', '/records', {
      name: 'docs.example.org',
      type: 'A',
      value: '203.0.113.80',
      ttl: 600,
    });
    expect(added.status).toBe(201);
    const early = await udp('docs.example.org', 'A');
    expect(early.header.rcode).toBe(Packet.RCODE.NXDOMAIN);
    await advance('6m');
    const cached = await tcp('docs.example.org', 'A');
    expect(cached.header.rcode, 'the NXDOMAIN stays cached for the SOA minimum (1 h at ClassicDNS)').toBe(
      Packet.RCODE.NXDOMAIN,
    );
    await advance('1h');
    const [overUdp, overTcp] = await Promise.all([udp('docs.example.org', 'A'), tcp('docs.example.org', 'A')]);
    for (const answer of [overUdp, overTcp]) {
      expect(answer.header.rcode).toBe(Packet.RCODE.NOERROR);
      expect(answer.answers.map((record) => (record as { address?: string }).address)).toEqual(['203.0.113.80']);
    }
    expect(await resolver.resolve4('docs.example.org')).toEqual(['203.0.113.80']);
  });

  it('NXDOMAIN carries the zone SOA in the authority section', async () => {
    const answer = await udp('missing.example.com', 'A');
    expect(answer.header.rcode).toBe(Packet.RCODE.NXDOMAIN);
    expect(answer.authorities).toEqual([expect.objectContaining({ type: Packet.TYPE.SOA, name: 'example.com' })]);
    await expect(resolver.resolve4('missing.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it("CAA, TXT, CNAME and ALIAS-flattened A answers parse in Node's resolver", async () => {
    await call('POST', '/reset');
    for (const record of [
      { name: 'example.com', type: 'CAA', value: { flags: 128, tag: 'issue', value: 'letsencrypt.org' } },
      { name: 'example.com', type: 'TXT', value: 'v=spf1 -all' },
      { name: 'example.com', type: 'ALIAS', value: 'petstore-docs.kennel-pages.dev' },
      { name: 'www.example.com', type: 'CNAME', value: 'petstore-docs.kennel-pages.dev' },
    ]) {
      expect((await call('POST', '/records', record)).status).toBe(201);
    }
    await advance('1m');
    expect(await resolver.resolveCaa('example.com')).toEqual([
      expect.objectContaining({ critical: 128, issue: 'letsencrypt.org' }),
    ]);
    expect(await resolver.resolveTxt('example.com')).toEqual([['v=spf1 -all']]);
    expect(await resolver.resolveCname('www.example.com')).toEqual(['petstore-docs.kennel-pages.dev']);
    expect((await resolver.resolve4('example.com')).sort()).toEqual(['198.51.100.10', '198.51.100.11']);
    const query = await call('GET', '/dns/query?name=example.com&type=A');
    expect(query.body).toMatchObject({ rcode: 'NOERROR', fromCache: true });
  });
});

describe('real certificates and the HTTPS site', () => {
  it('issues an X.509 certificate for a verified domain that verifies against the exported root, and serves it over TLS', async () => {
    await call('POST', '/reset');
    expect((await call('POST', '/domains', { name: 'docs.example.com' })).status).toBe(201);
    await call('POST', '/records', {
      name: 'docs.example.com',
      type: 'CNAME',
      value: 'petstore-docs.kennel-pages.dev',
      ttl: 3600,
    });
    await advance('1m');
    const verified = await call('POST', '/domains/docs.example.com/verify');
    expect(verified.body.dns).toMatchObject({ state: 'verified', reason: 'verified' });
    await advance('10m');
    expect((await call('GET', '/domains/docs.example.com')).body.certificate.state).toBe('issued');
    const rootPem = (await call('GET', '/ca/root.pem')).text;
    const chain = (await call('GET', '/domains/docs.example.com/certificate.pem')).text;
    const [leaf, root] = [new X509Certificate(chain), new X509Certificate(rootPem)];
    expect(leaf.verify(root.publicKey)).toBe(true);
    expect(leaf.checkIssued(root)).toBe(true);
    expect(leaf.subjectAltName).toBe('DNS:docs.example.com');

    const shown = (await call('GET', '/domains/docs.example.com')).body.certificate.issued.serialNumber as string;
    expect(new X509Certificate(chain).serialNumber.toLowerCase()).toBe(shown);
    const tls = await new Promise<{
      authorized: boolean;
      subjectaltname?: string;
      serialNumber: string;
      body: string;
    }>((resolve, reject) => {
      const socket = connect(
        { host: '127.0.0.1', port: mock.site!.port, servername: 'docs.example.com', ca: rootPem },
        () => {
          socket.write('GET /guide HTTP/1.1\r\nHost: docs.example.com\r\nConnection: close\r\n\r\n');
        },
      );
      let body = '';
      socket.on('data', (chunk) => (body += chunk));
      socket.on('secureConnect', () => (serialNumber = socket.getPeerCertificate().serialNumber));
      let serialNumber = '';
      socket.on('end', () =>
        resolve({
          authorized: socket.authorized,
          subjectaltname: socket.getPeerCertificate().subjectaltname,
          serialNumber,
          body,
        }),
      );
      socket.on('error', reject);
    });
    expect(tls.authorized).toBe(true);
    expect(tls.subjectaltname).toBe('DNS:docs.example.com');
    // The certificate served is the one the dashboard and GET /domains/{name} show.
    expect(tls.serialNumber.toLowerCase()).toBe(shown);
    expect(tls.body).toMatch(/^HTTP\/1\.1 200/);
    expect(tls.body).toContain('Served for docs.example.com');

    expect((await call('DELETE', '/domains/docs.example.com')).status).toBe(200);
    const served = await call('GET', `/site?url=${encodeURIComponent('https://docs.example.com/guide')}`);
    expect(served.body).toMatchObject({ kind: 'tls-error', reason: 'no_certificate', cause: 'unknown_domain' });
    await expect(
      new Promise((resolve, reject) => {
        const socket = connect(
          { host: '127.0.0.1', port: mock.site!.port, servername: 'docs.example.com', ca: rootPem },
          () => resolve(socket.authorized),
        );
        socket.on('error', reject);
      }),
    ).rejects.toThrow();
  });
});

describe('the control API', () => {
  it('has a handler for every operation of spec/domains.yaml', async () => {
    const spec = await loadDocument(packageFile('spec/domains.yaml'));
    expect([...CONTROL_OPERATIONS].sort()).toEqual(spec.operations.map((operation) => operation.operationId).sort());
  });

  it('loads a scenario up to a named step, and reports the history', async () => {
    const loaded = await call('POST', '/scenario', { name: 'caa-blocks-issuance', upTo: 'timed out' });
    expect(loaded.status).toBe(200);
    expect(loaded.body.passed).toBe(true);
    expect(loaded.body.played.at(-1)).toMatchObject({ name: 'timed out', offset: 'T+00:35:00' });
    const domain = (await call('GET', '/domains/docs.example.com')).body;
    expect(domain.certificate).toMatchObject({ state: 'timed_out', lastError: { reason: 'caa_forbids' } });
    const history = (await call('GET', '/history?subject=docs.example.com&kind=certificate')).body;
    expect(history.map((event: { kind: string }) => event.kind)).toContain('certificate.timed_out');
    expect((await call('POST', '/scenario', { name: 'nope' })).body.code).toBe('scenario_not_found');
    expect((await call('POST', '/scenario', { name: 'caa-blocks-issuance', upTo: 'nowhere' })).body.code).toBe(
      'step_not_found',
    );
  });

  it.each([
    ['POST', '/domains', { name: 'not a name' }, 400],
    ['POST', '/domains', { name: 'docs.kennel-pages.dev' }, 409],
    ['POST', '/records', { name: 'docs.example.com', type: 'A', value: 'nope' }, 400],
    ['POST', '/records', { name: 'docs.elsewhere.test', type: 'A', value: '192.0.2.1' }, 404],
    ['POST', '/records', { name: 'example.com', type: 'CNAME', value: 'x.example.net' }, 409],
    ['POST', '/clock/advance', { by: 'soon' }, 400],
    ['POST', '/redirects', { from: 'a.example.com', to: 'b.example.com', status: 302 }, 400],
    ['GET', '/domains/unknown.example.com', undefined, 404],
    ['GET', '/records/999999', undefined, 404],
    ['DELETE', '/state', undefined, 405],
  ])('%s %s → %i with an Error body', async (method, path, body, status) => {
    await call('POST', '/reset');
    const result = await call(method, path, body);
    expect(result.status).toBe(status);
    expect(result.body).toEqual({ code: expect.any(String), message: expect.any(String), status });
  });

  it('conforms to its own spec: kennel check --spec spec/domains.yaml exits 0', async () => {
    const summary = await runContract({
      baseUrl: world,
      apiKey: 'unused',
      specPath: packageFile('spec/domains.yaml'),
      seed: 21,
      // Operations whose valid requests name state kennel cannot arrange (a domain to make primary,
      // a record name already taken) answer their documented 404/409: not exercised, listed only.
    });
    const errors = summary.cases.flatMap((result) =>
      result.failures
        .filter((failure) => failure.severity === 'error')
        .map((failure) => `${result.operationId} ${result.check}: ${failure.title}`),
    );
    expect(errors).toEqual([]);
    expect(summary.exitCode).toBe(0);
  });
});

describe('admin token', () => {
  it('protects the control API when set', async () => {
    const guarded = await startMock({ adminToken: 'sesame' });
    try {
      const url = `${guarded.origin}/__kennel/world/state`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer sesame' } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
