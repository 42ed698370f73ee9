import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/cli/serve-config.js';
import { ToolError } from '../../src/core/tool-error.js';
import { withPorts } from '../../src/domains/live/site-server.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld, verifiedSiteDomains } from '../helpers/world-client.js';

// The documentation site as the real internet has it: a plain-HTTP listener that redirects to
// HTTPS keeping the site's ports, redirects to the primary domain, and the platform's default
// certificate for a name without one (a name mismatch, not a handshake EOF).
let mock: RunningMock;
let rootPem: string;
let directory: string;

const call = (method: string, path: string, body?: unknown) => callWorld(mock.origin, method, path, body);

beforeAll(async () => {
  mock = await startMock({ sitePort: 0, siteHttpPort: 0 });
  directory = await mkdtemp(path.join(tmpdir(), 'kennel-site-'));
  await verifiedSiteDomains(mock.origin, ['docs.example.com', 'www.example.com']);
  expect((await call('PUT', '/primary', { name: 'docs.example.com' })).status).toBe(200);
  expect((await call('POST', '/redirects', { from: 'www.example.com', to: 'docs.example.com' })).status).toBe(201);
  rootPem = (await call('GET', '/ca/root.pem')).text;
  await writeFile(path.join(directory, 'root.pem'), rootPem);
});
afterAll(async () => {
  await mock.close();
  await rm(directory, { recursive: true, force: true });
});

/** A plain HTTP request to the site's HTTP listener with `host` as the Host header. */
function plain(host: string, target: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: mock.site!.httpPort, path: target, headers: { host } },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode!, location: response.headers.location });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('the plain-HTTP listener', () => {
  it('is open when asked for, on its own port', () => {
    expect(mock.site!.httpPort).toEqual(expect.any(Number));
    expect(mock.site!.httpPort).not.toBe(mock.site!.port);
  });

  it('upgrades to https keeping the HTTPS listener port', async () => {
    const https = mock.site!.port;
    expect(await plain(`docs.example.com:${mock.site!.httpPort}`, '/guide?x=1')).toEqual({
      status: 308,
      location: `https://docs.example.com:${https}/guide?x=1`,
    });
  });

  it('redirects a non-primary domain to the primary one, keeping the port', async () => {
    const https = mock.site!.port;
    expect(await plain(`www.example.com:${mock.site!.httpPort}`, '/guide')).toEqual({
      status: 301,
      location: `https://docs.example.com:${https}/guide`,
    });
  });

  it('curl -L follows http://www → https://docs, verifying the chain against the exported root', async () => {
    const { httpPort, port } = mock.site!;
    const resolve = ['www.example.com', 'docs.example.com'].flatMap((name) =>
      [httpPort, port].flatMap((at) => ['--resolve', `${name}:${at}:127.0.0.1`]),
    );
    const { stdout } = await promisify(execFile)('curl', [
      '-sS',
      '-L',
      '--max-redirs',
      '3',
      '--cacert',
      path.join(directory, 'root.pem'),
      ...resolve,
      '-w',
      '\n%{http_code} %{url_effective} %{num_redirects}',
      `http://www.example.com:${httpPort}/guide`,
    ]);
    expect(stdout).toContain('Served for docs.example.com by project petstore-docs.');
    expect(stdout.trim().split('\n').at(-1)).toBe(`200 https://docs.example.com:${port}/guide 1`);
  });
});

describe('over HTTPS, redirects keep the port too', () => {
  it('https://www → https://docs with the HTTPS port', async () => {
    const response = await new Promise<string>((resolve, reject) => {
      const socket = connect(
        { host: '127.0.0.1', port: mock.site!.port, servername: 'www.example.com', ca: rootPem },
        () =>
          socket.end(`GET /guide HTTP/1.1\r\nHost: www.example.com:${mock.site!.port}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(response).toMatch(/^HTTP\/1\.1 301/);
    expect(response).toMatch(
      new RegExp(`\r\nlocation: https://docs\\.example\\.com:${mock.site!.port}/guide\r\n`, 'i'),
    );
  });
});

describe("a name without a certificate gets the platform's default certificate", () => {
  /** The handshake for `servername` (undefined: no SNI), with the chain trusted. */
  function handshake(
    servername: string | undefined,
  ): Promise<{ error?: NodeJS.ErrnoException; peer: PeerCertificate }> {
    return new Promise((resolve, reject) => {
      const socket = connect(
        { host: '127.0.0.1', port: mock.site!.port, servername, ca: rootPem, rejectUnauthorized: false },
        () => {
          const peer = socket.getPeerCertificate();
          const error = socket.authorizationError ?? undefined;
          socket.end();
          resolve({ peer, error: error });
        },
      );
      socket.on('error', reject);
    });
  }

  it('an unknown name: the handshake completes with the platform certificate (trusted chain, other name)', async () => {
    const { peer, error } = await handshake('unknown.example.org');
    expect(error?.message ?? error, 'the chain itself is trusted: only the name is wrong').toMatch(
      /ERR_TLS_CERT_ALTNAME_INVALID|Hostname/,
    );
    expect(peer.subjectaltname).toContain('DNS:*.kennel-pages.dev');
    expect(peer.subjectaltname).not.toContain('unknown.example.org');
  });

  it('a real client sees a name mismatch, not a handshake EOF', async () => {
    const failure = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const socket = connect(
        { host: '127.0.0.1', port: mock.site!.port, servername: 'attached-no-cert.example.com', ca: rootPem },
        () => resolve(new Error('connected')),
      );
      socket.on('error', resolve);
    });
    expect(failure.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('curl says the name does not match', async () => {
    const result = await promisify(execFile)('curl', [
      '-sS',
      '--cacert',
      path.join(directory, 'root.pem'),
      '--resolve',
      `nocert.example.com:${mock.site!.port}:127.0.0.1`,
      `https://nocert.example.com:${mock.site!.port}/`,
    ]).catch((error: { code: number; stderr: string }) => error);
    expect((result as { code: number }).code, 'curl exit 60: peer certificate cannot be authenticated').toBe(60);
    expect((result as { stderr: string }).stderr).toMatch(
      /no alternative certificate subject name matches|does not match/i,
    );
  });

  it('without SNI too, and the platform host itself is served over trusted HTTPS', async () => {
    expect((await handshake(undefined)).peer.subjectaltname).toContain('DNS:*.kennel-pages.dev');
    const { peer, error } = await handshake('petstore-docs.kennel-pages.dev');
    expect(error).toBeUndefined();
    expect(peer.subjectaltname).toContain('DNS:*.kennel-pages.dev');
  });
});

describe('withPorts and the --site-http-port flag', () => {
  it.each([
    ['https://docs.example.com/guide', { https: 8443, http: 8080 }, 'https://docs.example.com:8443/guide'],
    ['http://docs.example.com/guide?a=1', { https: 8443, http: 8080 }, 'http://docs.example.com:8080/guide?a=1'],
    ['https://docs.example.com/', { https: 443, http: 80 }, 'https://docs.example.com/'],
    ['http://docs.example.com/', { https: 8443 }, 'http://docs.example.com/'],
  ])('%s with %j → %s', (location, ports, expected) => expect(withPorts(location, ports)).toBe(expected));

  it('--site-http-port needs --site-port (a ToolError: exit 2)', () => {
    expect(() => resolveConfig({ siteHttpPort: 0, cors: true, world: true }, {})).toThrow(ToolError);
    expect(resolveConfig({ sitePort: 0, siteHttpPort: 0, cors: true, world: true }, {}).siteHttpPort).toBe(0);
  });
});

describe('a client that ignores the name mismatch', () => {
  /** A request over TLS to `servername` that accepts any certificate; the raw response. */
  function insecure(servername: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: mock.site!.port, servername, rejectUnauthorized: false }, () =>
        socket.end(`GET / HTTP/1.1\r\nHost: ${servername}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  }

  it('gets 421 for every name the default certificate does not cover, 404 for an unknown platform host', async () => {
    const name = 'waiting.example.com';
    expect((await call('POST', '/domains', { name })).status).toBe(201);
    await call('POST', '/records', { name, type: 'CNAME', value: 'petstore-docs.kennel-pages.dev' });
    await call('POST', '/clock/advance', { by: '1m' });
    const verified = JSON.parse((await call('POST', `/domains/${name}/verify`)).text);
    expect(verified.certificate.state).toBe('pending');
    expect(await insecure(name)).toMatch(/^HTTP\/1\.1 421/);
    // RFC 9110 §15.5.20: the server cannot answer authoritatively for a name it holds no certificate for.
    expect(await insecure('unknown.example.org')).toMatch(/^HTTP\/1\.1 421/);
    expect(await insecure('unknown.kennel-pages.dev')).toMatch(/^HTTP\/1\.1 404/);
  });
});
