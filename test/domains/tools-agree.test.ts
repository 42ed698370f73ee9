import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld } from '../helpers/world-client.js';

// The acceptance of issue 22: `dig`, `openssl s_client` and `curl` agree with what a scenario says
// for the same world. The scenario (test/fixtures/domains/tools-agree.yaml) is played by the live
// world, its expectations must all hold there, and then the real tools ask the real listeners.

const run = promisify(execFile);
const has = (tool: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const tools = { dig: has('dig'), openssl: has('openssl'), curl: has('curl') };

let mock: RunningMock;
let directory: string;
let rootFile: string;
let played: { name?: string; observed: string; passed: boolean; failures: string[] }[];

beforeAll(async () => {
  mock = await startMock({ dnsPort: 0, sitePort: 0, siteHttpPort: 0 });
  directory = await mkdtemp(path.join(tmpdir(), 'kennel-tools-'));
  const source = await readFile(new URL('../fixtures/domains/tools-agree.yaml', import.meta.url), 'utf8');
  const loaded = await callWorld(mock.origin, 'POST', '/scenario', { source, name: 'tools-agree' });
  expect(loaded.status, loaded.text).toBe(200);
  played = loaded.body.played;
  rootFile = path.join(directory, 'root.pem');
  await writeFile(rootFile, (await callWorld(mock.origin, 'GET', '/ca/root.pem')).text);
});
afterAll(async () => {
  await mock?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

const step = (name: string) => played.find((candidate) => candidate.name === name)!;

it('the scenario holds in the live world, step by step', () => {
  expect(played.filter((result) => !result.passed)).toEqual([]);
});

describe.skipIf(!tools.dig)('dig against the live DNS server (the public, validating resolver)', () => {
  const dig = async (...args: string[]) =>
    (await run('dig', ['@127.0.0.1', '-p', String(mock.dns!.port), '+tries=1', '+time=2', ...args])).stdout;

  it('a signed zone: NOERROR with the AD flag, as the scenario says (authenticated: true)', async () => {
    expect(step('signed').observed).toBe('NOERROR (ad): signed.example.com A 203.0.113.9');
    const out = await dig('+dnssec', 'signed.example.com', 'A');
    expect(out).toMatch(/status: NOERROR/);
    expect(out).toMatch(/flags: qr rd ra ad;/);
    expect(out).toMatch(/signed\.example\.com\.\s+\d+\s+IN\s+A\s+203\.0\.113\.9/);
    expect(await dig('+short', 'example.com', 'DNSKEY')).toMatch(/^257 3 13 \S+/);
    // dig computes the key tag itself (RFC 4034 Appendix B): it is the one the parent's DS names.
    const keyId = /key id = (\d+)/.exec(await dig('+multi', 'example.com', 'DNSKEY'))![1];
    const ds = await callWorld(mock.origin, 'GET', '/dns/query?name=example.com&type=DS');
    expect(ds.body.answers[0].value.keyTag).toBe(Number(keyId));
  });

  it('a stale DS: SERVFAIL with EDE 9 (DNSKEY Missing); +cd answers without AD', async () => {
    expect(step('bogus').observed).toBe('SERVFAIL (bogus: DNSKEY Missing)');
    const bogus = await dig('www.example.net', 'A');
    expect(bogus).toMatch(/status: SERVFAIL/);
    expect(bogus).toMatch(/EDE: 9 \(DNSKEY Missing\)/);
    expect(step('checking disabled').observed).toMatch(/^NOERROR .*www\.example\.net A 203\.0\.113\.10$/);
    const world = (cd: string) => callWorld(mock.origin, 'GET', `/dns/query?name=www.example.net&type=A${cd}`);
    expect((await world('')).body).toMatchObject({ rcode: 'SERVFAIL', security: 'bogus', bogus: 'DNSKEY Missing' });
    expect((await world('&cd=true')).body).toMatchObject({ rcode: 'NOERROR', security: 'bogus' });
    const unchecked = await dig('+cd', 'www.example.net', 'A');
    expect(unchecked).toMatch(/status: NOERROR/);
    expect(unchecked).toMatch(/flags: qr rd ra cd;/);
    expect(unchecked).toMatch(/203\.0\.113\.10/);
  });

  it('a DNAME substitution too long: YXDOMAIN with the DNAME, as the scenario says', async () => {
    expect(step('too long').observed).toMatch(/^YXDOMAIN( \(ad\))?: a\.example\.com DNAME /);
    const out = await dig(`${'q'.repeat(63)}.a.example.com`, 'A');
    expect(out).toMatch(/status: YXDOMAIN/);
    expect(out).toMatch(/^a\.example\.com\.\s+\d+\s+IN\s+DNAME\s+x{63}\./m);
    expect(out).not.toMatch(/IN\s+CNAME/);
  });

  it('the DS of the stale zone is the one the world answers', async () => {
    const [tag, algorithm, digestType, ...digest] = (await dig('+cd', '+short', 'example.net', 'DS'))
      .trim()
      .split(/\s+/);
    const world = await callWorld(mock.origin, 'GET', '/dns/query?name=example.net&type=DS&cd=true');
    expect(world.body.answers[0].value).toEqual({
      keyTag: Number(tag),
      algorithm: Number(algorithm),
      digestType: Number(digestType),
      digest: digest.join(''),
    });
  });
});

describe.skipIf(!tools.openssl)('openssl s_client against the live site', () => {
  const handshake = async (servername: string) => {
    const { stdout } = await run(
      'sh',
      [
        '-c',
        'echo | openssl s_client -connect "127.0.0.1:$1" -servername "$2" -verify_hostname "$2" -CAfile "$3" 2>&1',
        'sh',
        String(mock.site!.port),
        servername,
        rootFile,
      ],
      { timeout: 10_000 },
    );
    return stdout;
  };

  it('the verified domain: the chain verifies, and the serial is the one the world shows', async () => {
    expect(step('served').observed).toMatch(/^200 /);
    const out = await handshake('docs.example.com');
    expect(out).toMatch(/Verify return code: 0 \(ok\)/);
    const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(out)![0];
    const serial = execFileSync('openssl', ['x509', '-noout', '-serial'], { input: pem }).toString();
    const shown = (await callWorld(mock.origin, 'GET', '/domains/docs.example.com')).body.certificate.issued
      .serialNumber as string;
    expect(serial.trim()).toBe(`serial=${shown.toUpperCase()}`);
  });

  it('a name without a certificate: a hostname mismatch, as the scenario says (tls: no_certificate)', async () => {
    expect(step('no certificate').observed).toMatch(/no_certificate/);
    expect(await handshake('pending.example.com')).toMatch(/Verify return code: 62 \(hostname mismatch\)/);
  });
});

describe.skipIf(!tools.curl)('curl against the live site', () => {
  /** curl with the exported root trusted and every name of the fixture at 127.0.0.1 on both listeners. */
  const curl = (...args: string[]) => {
    const names = ['docs.example.com', 'www.example.com', 'pending.example.com'];
    const ports = [mock.site!.port, mock.site!.httpPort!];
    const resolve = names.flatMap((name) => ports.flatMap((port) => ['--resolve', `${name}:${port}:127.0.0.1`]));
    return run('curl', ['-sS', '--max-time', '10', '--cacert', rootFile, ...resolve, ...args]);
  };
  const https = (name: string, path = '/') => `https://${name}:${mock.site!.port}${path}`;
  const lastLine = (stdout: string) => stdout.trim().split('\n').at(-1);

  it('the verified domain: 200, the project the scenario names', async () => {
    const { stdout } = await curl('-w', '\n%{http_code}', https('docs.example.com'));
    expect(stdout).toContain('by project petstore-docs');
    expect(lastLine(stdout)).toBe('200');
  });

  it('a name without a certificate: exit 60 (peer certificate cannot be authenticated)', async () => {
    await expect(curl(https('pending.example.com'))).rejects.toMatchObject({ code: 60 });
  });

  it('POST to the 301: the same status and Location; curl -L then asks with GET, as followedWith says', async () => {
    expect(step('post to the redirect').observed).toBe('301 → https://docs.example.com/subscribe (followed with GET)');
    const { stdout } = await curl(
      '-X',
      'POST',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{redirect_url}',
      https('www.example.com', '/subscribe'),
    );
    expect(stdout).toBe(`301 ${https('docs.example.com', '/subscribe')}`);
    const site = await callWorld(
      mock.origin,
      'GET',
      `/site?url=${encodeURIComponent('https://www.example.com/subscribe')}&method=POST`,
    );
    expect(site.body).toMatchObject({
      kind: 'redirect',
      status: 301,
      followedWith: 'GET',
      headers: { location: 'https://docs.example.com/subscribe', 'content-type': 'text/html; charset=utf-8' },
    });
    // -d makes curl POST; after a 301 it repeats the request as GET, which the page answers with 200.
    const followed = await curl(
      '-L',
      '-d',
      'email=a',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{method}',
      https('www.example.com', '/subscribe'),
    );
    expect(followed.stdout).toBe('200 GET');
  });

  it('POST to the http upgrade: 308, which curl -L repeats as POST, and the page answers 405 with Allow', async () => {
    expect(step('post to the upgrade').observed).toMatch(/^308 .*\(followed with POST\)$/);
    expect(step('post to a page').observed).toBe('405 method not allowed (Allow: GET, HEAD)');
    const url = `http://docs.example.com:${mock.site!.httpPort}/subscribe`;
    const { stdout } = await curl(
      '-L',
      '-d',
      'email=a',
      '-D',
      '-',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{method}',
      url,
    );
    expect(stdout).toMatch(/^HTTP\/1\.1 308/m);
    expect(stdout).toMatch(/^allow: GET, HEAD\r?$/im);
    expect(lastLine(stdout)).toBe('405 POST');
  });

  it('HEAD of a page: 200 without a body, as the scenario says', async () => {
    expect(step('head of a page').observed).toBe('200 site of petstore-docs');
    const { stdout } = await curl('-I', https('docs.example.com', '/guide'));
    expect(stdout).toMatch(/^HTTP\/1\.1 200/);
    expect(stdout).not.toContain('<html');
  });
});
