import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, siteHost } from '../../src/domains/live/site-server.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld, verifiedSiteDomains } from '../helpers/world-client.js';

// The documentation site over real HTTPS: what the client sends (Host, path) never reaches the
// page unescaped, and a Host that is not a host name is refused.
let mock: RunningMock;
let rootPem: string;

const call = (method: string, path: string, body?: unknown) => callWorld(mock.origin, method, path, body);

beforeAll(async () => {
  mock = await startMock({ sitePort: 0 });
  // Two verified domains with certificates, one redirecting to the other.
  await verifiedSiteDomains(mock.origin, ['docs.example.com', 'www.example.com']);
  expect((await call('POST', '/redirects', { from: 'www.example.com', to: 'docs.example.com' })).status).toBe(201);
  rootPem = (await call('GET', '/ca/root.pem')).text;
});
afterAll(() => mock.close());

/** Sends raw request bytes over TLS to the site (SNI `servername`) and returns the raw response. */
function site(servername: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: mock.site!.port, servername, ca: rootPem }, () =>
      socket.end(request),
    );
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const get = (target: string, host: string | undefined, version = '1.1') =>
  `GET ${target} HTTP/${version}\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n`;

describe('the site page escapes what it shows', () => {
  it('a redirect shows its location escaped, and the Location header is percent-encoded', async () => {
    const response = await site('www.example.com', get(`/guide?a=1&b='<b>x</b>'`, 'www.example.com'));
    expect(response).toMatch(/^HTTP\/1\.1 301/);
    const [head, body] = response.split('\r\n\r\n');
    // The target carries the HTTPS listener's port (not 443 here), so clients reach this server again.
    const target = `https://docs.example.com:${mock.site!.port}/guide`;
    expect(head!.toLowerCase()).toContain(`\r\nlocation: ${target}?a=1&b=%27%3cb%3ex%3c/b%3e%27\r\n`);
    expect(body).not.toMatch(/<b>|'/);
    expect(body).toContain(`${target}?a=1&amp;b=%27%3Cb%3Ex%3C/b%3E%27`);
  });

  it('the page names the host served', async () => {
    const response = await site('docs.example.com', get('/', 'DOCS.example.com:443'));
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(response).toContain('Served for docs.example.com by project petstore-docs.');
  });

  it.each([
    ['markup', '<script>alert(1)</script>'],
    ['a quote', 'docs.example.com"onload="x'],
    ['spaces', 'docs example com'],
    ['an empty name', ''],
    ['a bad label', '-docs.example.com'],
    ['an over-long name', `${'a'.repeat(63)}.`.repeat(5) + 'com'],
  ])('a Host with %s → 400, nothing of it reflected', async (_what, host) => {
    const response = await site('docs.example.com', get('/', host));
    expect(response).toMatch(/^HTTP\/1\.1 400/);
    if (host.length > 3) expect(response).not.toContain(host);
    expect(response).not.toMatch(/<script>/);
  });

  it('a request without Host (HTTP/1.0) → 400', async () => {
    expect(await site('docs.example.com', get('/', undefined, '1.0'))).toMatch(/^HTTP\/1\.[01] 400/);
  });
});

describe('certificates the site presents', () => {
  /** The serial number of the leaf the site presents for `servername`. */
  function presented(servername: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: mock.site!.port, servername, ca: rootPem }, () => {
        resolve(socket.getPeerCertificate().serialNumber);
        socket.end();
      });
      socket.on('error', reject);
    });
  }

  it('are minted once per issuance, and again after a renewal', async () => {
    const first = await presented('docs.example.com');
    expect(await presented('docs.example.com')).toBe(first);
    const before = (await call('GET', '/domains/docs.example.com')).text;
    await call('POST', '/clock/advance', { by: '61d' });
    const after = (await call('GET', '/domains/docs.example.com')).text;
    expect(JSON.parse(after).certificate.issued.serialNumber).not.toBe(
      JSON.parse(before).certificate.issued.serialNumber,
    );
    expect(await presented('docs.example.com')).not.toBe(first);
  });
});

describe('escapeHtml and siteHost', () => {
  it('escapes the five characters that matter in content and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it.each([
    ['docs.example.com', 'docs.example.com'],
    ['docs.example.com.', 'docs.example.com.'],
    ['docs.example.com:8443', 'docs.example.com'],
    ['localhost', 'localhost'],
    ['[::1]:443', undefined],
    ['docs.example.com:', undefined],
    ['docs..example.com', undefined],
    ['bücher.example.com', undefined],
    [undefined, undefined],
  ])('%j → %j', (header, host) => expect(siteHost(header)).toBe(host));
});
