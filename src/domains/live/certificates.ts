// A real X.509 certificate authority for the domain simulator: an ECDSA P-256 root and leaves that
// Node's TLS stack accepts. Time is always passed in (the simulator's virtual clock).
import 'reflect-metadata'; // @peculiar/x509's tsyringe dependency throws unless this comes first
import { KeyObject, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

/** A certificate the CA issued, with its private key, all PEM. */
export interface IssuedCertificate {
  domains: string[];
  /** Hexadecimal, as @peculiar/x509 and OpenSSL print it. */
  serialNumber: string;
  /** As encoded in the certificate: whole seconds (X.509 times carry no milliseconds). */
  notBefore: Date;
  notAfter: Date;
  certificatePem: string;
  /** PKCS#8. */
  privateKeyPem: string;
  /** Leaf then root. */
  chainPem: string;
}

/** Issues leaf certificates signed by one self-signed root. */
export interface CertificateAuthority {
  readonly name: string;
  readonly rootCertificatePem: string;
  /** `serialNumber` (lower-case hex, positive DER) defaults to a random one. */
  issue(
    domains: string[],
    validity: { notBefore: Date; notAfter: Date },
    serialNumber?: string,
  ): Promise<IssuedCertificate>;
}

/** A certificate request the CA refuses: no names, non-ASCII (not punycode) names, or a bad validity. */
export class CertificateRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateRequestError';
  }
}

const KEY_ALGORITHM: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGNING_ALGORITHM: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const ROOT_YEARS = 10;
/** A DNS name in presentation form, optionally a wildcard: ASCII letters, digits, hyphens, dots. */
const DNS_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

function generateKeys(extractable: boolean): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(KEY_ALGORITHM, extractable, ['sign', 'verify']);
}

/** A serial X.509 encodes unchanged: 1 to 20 bytes of hexadecimal, top bit clear, no leading zero byte. */
const SERIAL = /^(?!00)[0-7][0-9a-f](?:[0-9a-f]{2}){0,19}$/;

/** A random positive 16-byte serial (top bit clear so DER needs no sign byte, first byte non-zero). */
export function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f || 0x01;
  return bytes.toString('hex');
}

function addYears(date: Date, years: number): Date {
  const result = new Date(date.getTime());
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return result;
}

function checkRequest(domains: string[], validity: { notBefore: Date; notAfter: Date }): void {
  if (domains.length === 0) throw new CertificateRequestError('a certificate needs at least one domain');
  for (const domain of domains) {
    if (/[^\x20-\x7e]/.test(domain)) {
      throw new CertificateRequestError(
        `domain "${domain}" is not ASCII: convert internationalised names to punycode (xn--…) first`,
      );
    }
    if (domain.length > 253 || !DNS_NAME.test(domain))
      throw new CertificateRequestError(`"${domain}" is not a valid DNS name`);
  }
  if (!(validity.notBefore.getTime() < validity.notAfter.getTime())) {
    throw new CertificateRequestError('notBefore must be earlier than notAfter');
  }
}

/** PEM with a final newline, as files and `tls` expect. */
function certificatePemOf(certificate: x509.X509Certificate): string {
  return `${certificate.toString('pem')}\n`;
}

function privateKeyPem(key: CryptoKey): string {
  return KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }) as string;
}

async function createRoot(
  name: string,
  now: Date,
): Promise<{ certificate: x509.X509Certificate; keys: CryptoKeyPair }> {
  const keys = await generateKeys(false);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [name] }],
    notBefore: now,
    notAfter: addYears(now, ROOT_YEARS),
    keys,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, keys };
}

async function leafExtensions(domains: string[], leafKey: CryptoKey, rootKey: CryptoKey): Promise<x509.Extension[]> {
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    new x509.SubjectAlternativeNameExtension(domains.map((value) => ({ type: 'dns' as const, value }))),
    await x509.SubjectKeyIdentifierExtension.create(leafKey),
    await x509.AuthorityKeyIdentifierExtension.create(rootKey),
  ];
}

/** Creates a CA with a fresh self-signed root valid for ten years from `now`. */
export async function createCertificateAuthority(
  options: { name?: string; now?: Date } = {},
): Promise<CertificateAuthority> {
  const name = options.name ?? 'kennel test root';
  const root = await createRoot(name, options.now ?? new Date());
  const rootCertificatePem = certificatePemOf(root.certificate);

  async function issue(
    domains: string[],
    validity: { notBefore: Date; notAfter: Date },
    serialNumber: string = randomSerial(),
  ): Promise<IssuedCertificate> {
    checkRequest(domains, validity);
    if (!SERIAL.test(serialNumber))
      throw new CertificateRequestError(`serial "${serialNumber}" is not 1 to 20 positive DER bytes`);
    const keys = await generateKeys(true);
    const leaf = await x509.X509CertificateGenerator.create({
      serialNumber,
      subject: [{ CN: [domains[0]!] }],
      issuer: root.certificate.subjectName,
      notBefore: validity.notBefore,
      notAfter: validity.notAfter,
      publicKey: keys.publicKey,
      signingKey: root.keys.privateKey,
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions: await leafExtensions(domains, keys.publicKey, root.keys.publicKey),
    });
    const certificatePem = certificatePemOf(leaf);
    return {
      domains: [...domains],
      serialNumber: leaf.serialNumber,
      notBefore: leaf.notBefore,
      notAfter: leaf.notAfter,
      certificatePem,
      privateKeyPem: privateKeyPem(keys.privateKey),
      chainPem: certificatePem + rootCertificatePem,
    };
  }

  return { name, rootCertificatePem, issue };
}
