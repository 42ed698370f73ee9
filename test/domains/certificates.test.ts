import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CertificateRequestError,
  createCertificateAuthority,
  type CertificateAuthority,
  type IssuedCertificate,
} from '../../src/domains/live/certificates.js';
import { serialFromBytes } from '../../src/domains/sim/certificate-lifecycle.js';

const DAY = 86_400_000;
// Real time here, because the TLS handshake checks validity against the machine's clock.
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const validity = { notBefore: new Date(now.getTime() - DAY), notAfter: new Date(now.getTime() + 90 * DAY) };

let ca: CertificateAuthority;
let docs: IssuedCertificate;
let shop: IssuedCertificate;

beforeAll(async () => {
  ca = await createCertificateAuthority({ now: new Date(now.getTime() - 2 * DAY) });
  [docs, shop] = await Promise.all([
    ca.issue(['docs.example.com', 'www.docs.example.com'], validity),
    ca.issue(['shop.example.org'], validity),
  ]);
});

describe('createCertificateAuthority', () => {
  it('makes a self-signed CA root valid for ten years from now', () => {
    const root = new X509Certificate(ca.rootCertificatePem);
    expect(ca.name).toBe('kennel test root');
    expect(root.ca).toBe(true);
    expect(root.subject).toBe('CN=kennel test root');
    expect(root.checkIssued(root)).toBe(true);
    expect(root.verify(root.publicKey)).toBe(true);
    expect(new Date(root.validFrom).getTime()).toBe(now.getTime() - 2 * DAY);
    expect(new Date(root.validTo).getUTCFullYear()).toBe(new Date(now.getTime() - 2 * DAY).getUTCFullYear() + 10);
    expect(root.toLegacyObject().asn1Curve).toBe('prime256v1');
  });

  it('takes its name from the options', async () => {
    const named = await createCertificateAuthority({ name: 'Pebble-ish root', now });
    expect(new X509Certificate(named.rootCertificatePem).subject).toBe('CN=Pebble-ish root');
  });
});

describe('issue', () => {
  it('issues a leaf that verifies against the root', () => {
    const leaf = new X509Certificate(docs.certificatePem);
    const root = new X509Certificate(ca.rootCertificatePem);
    expect(leaf.verify(root.publicKey)).toBe(true);
    expect(leaf.checkIssued(root)).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.subject).toBe('CN=docs.example.com');
    expect(leaf.subjectAltName).toBe('DNS:docs.example.com, DNS:www.docs.example.com');
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(leaf.checkPrivateKey(createPrivateKey(docs.privateKeyPem))).toBe(true);
  });

  it('uses the validity it is given and reports it', () => {
    const leaf = new X509Certificate(docs.certificatePem);
    expect(new Date(leaf.validFrom)).toEqual(validity.notBefore);
    expect(new Date(leaf.validTo)).toEqual(validity.notAfter);
    expect(docs.notBefore).toEqual(validity.notBefore);
    expect(docs.notAfter).toEqual(validity.notAfter);
  });

  it('gives each leaf a distinct positive 16-byte serial', () => {
    const serials = [docs, shop].map((c) => new X509Certificate(c.certificatePem).serialNumber);
    for (const serial of serials) {
      expect(serial).toMatch(/^[0-7][0-9A-F]{31}$/);
      expect(serial).not.toMatch(/^00/);
    }
    expect(serials[0]).not.toBe(serials[1]);
    expect(docs.serialNumber.toUpperCase()).toBe(serials[0]);
  });

  it('uses the serial it is given, so the certificate served carries the serial the simulator shows', async () => {
    const issued = await ca.issue(['serial.example.com'], validity, '7f00000000000000000000000000abcd');
    expect(issued.serialNumber).toBe('7f00000000000000000000000000abcd');
    expect(new X509Certificate(issued.certificatePem).serialNumber.toLowerCase()).toBe(issued.serialNumber);
  });

  it.each(['', '80aa', '00aa', 'zz', 'AB'])(
    'refuses serial %j, which DER would change or cannot hold',
    async (serial) => {
      await expect(ca.issue(['serial.example.com'], validity, serial)).rejects.toBeInstanceOf(CertificateRequestError);
    },
  );

  it('makes simulator serials DER-stable: top bit cleared, no leading zero byte', () => {
    expect(serialFromBytes([0xff, 0x01])).toBe('7f01');
    expect(serialFromBytes([0x00, 0x01])).toBe('0101');
    expect(serialFromBytes([0x80, 0x01])).toBe('0101');
    expect(serialFromBytes([0x12, 0xab])).toBe('12ab');
  });

  it('returns a PKCS#8 key and a leaf + root chain', () => {
    expect(docs.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(docs.chainPem).toBe(docs.certificatePem + ca.rootCertificatePem);
    expect(docs.domains).toEqual(['docs.example.com', 'www.docs.example.com']);
  });

  it('issues wildcard and punycode names', async () => {
    const issued = await ca.issue(['*.example.net', 'xn--bcher-kva.example'], validity);
    expect(new X509Certificate(issued.certificatePem).subjectAltName).toBe(
      'DNS:*.example.net, DNS:xn--bcher-kva.example',
    );
  });

  it.each([
    { domains: ['bücher.example'], message: /not ASCII: convert internationalised names to punycode/ },
    { domains: [], message: /at least one domain/ },
    { domains: ['bad name.example'], message: /not a valid DNS name/ },
    { domains: ['-bad.example'], message: /not a valid DNS name/ },
  ])('refuses $domains', async ({ domains, message }) => {
    const issuing = ca.issue(domains, validity);
    await expect(issuing).rejects.toThrow(CertificateRequestError);
    await expect(issuing).rejects.toThrow(message);
  });

  it('refuses an empty validity window', async () => {
    await expect(ca.issue(['docs.example.com'], { notBefore: now, notAfter: now })).rejects.toThrow(
      /notBefore must be earlier/,
    );
  });
});

describe('a real TLS handshake', () => {
  let server: tls.Server;
  let port: number;

  beforeAll(async () => {
    const contexts = new Map([
      ['docs.example.com', tls.createSecureContext({ cert: docs.chainPem, key: docs.privateKeyPem })],
      ['shop.example.org', tls.createSecureContext({ cert: shop.chainPem, key: shop.privateKeyPem })],
    ]);
    server = tls.createServer(
      {
        cert: docs.chainPem,
        key: docs.privateKeyPem,
        SNICallback: (name, callback) => callback(null, contexts.get(name)),
      },
      (socket) => socket.end('hello\n'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function handshake(servername: string): Promise<{ authorized: boolean; error?: Error; san?: string }> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, servername, ca: ca.rootCertificatePem }, () => {
        resolve({ authorized: socket.authorized, san: socket.getPeerCertificate().subjectaltname });
        socket.end();
      });
      socket.on('error', (error) => {
        socket.destroy();
        if ('code' in error) resolve({ authorized: false, error });
        else reject(error as Error);
      });
    });
  }

  it.each([
    { servername: 'docs.example.com', san: 'DNS:docs.example.com, DNS:www.docs.example.com' },
    { servername: 'shop.example.org', san: 'DNS:shop.example.org' },
  ])('serves the certificate for $servername and the client trusts it', async ({ servername, san }) => {
    const result = await handshake(servername);
    expect(result.error).toBeUndefined();
    expect(result.authorized).toBe(true);
    expect(result.san).toBe(san);
  });

  it('fails verification for a name without a certificate', async () => {
    const result = await handshake('blog.example.com');
    expect(result.authorized).toBe(false);
    expect(result.error).toHaveProperty('code', 'ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('fails verification against a different root', async () => {
    const other = await createCertificateAuthority({ now });
    const result = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const socket = tls.connect({
        host: '127.0.0.1',
        port,
        servername: 'docs.example.com',
        ca: other.rootCertificatePem,
      });
      socket.on('error', (error) => {
        socket.destroy();
        resolve(error);
      });
    });
    // The server sends leaf + root, so OpenSSL meets an untrusted self-signed root in the chain.
    expect(result.code).toBe('SELF_SIGNED_CERT_IN_CHAIN');
  });
});
