import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('kennel serve (in-process)', () => {
  it('serves with the given key, prints where, logs one JSON line per request, stops on signal', async () => {
    const cli = runCli(['serve', '--port', '0', '--api-key', 'cli-key', '--seed', '3', '--pets', '4']);
    const { url, origin } = await cli.ready;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer cli-key' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(4);
    expect((await fetch(`${origin}/__kennel/health`)).status).toBe(200);
    cli.stop();
    expect(await cli.code).toBe(0);
    expect(cli.stderr()).toContain(`API      ${url}`);
    expect(cli.stderr()).toContain('1 configured');
    const lines = cli.logs().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        url: '/v1/pets',
        status: 200,
        operationId: 'listPets',
        msg: 'request',
        level: 30,
      }),
    );
    expect(lines.every((line) => typeof line.time === 'string')).toBe(true);
  });

  it('prints the development key when none is configured, and reads KENNEL_API_KEYS', async () => {
    const dev = runCli(['serve', '--port', '0', '--log-level', 'silent']);
    await dev.ready;
    dev.stop();
    await dev.code;
    expect(dev.stderr()).toContain('kennel-dev-key');

    const fromEnv = runCli(['serve', '--port', '0', '--log-level', 'silent'], { KENNEL_API_KEYS: 'env-a, env-b' });
    const { url } = await fromEnv.ready;
    expect((await fetch(`${url}/pets`, { headers: { authorization: 'Bearer env-b' } })).status).toBe(200);
    expect((await fetch(`${url}/pets`, { headers: { authorization: 'Bearer kennel-dev-key' } })).status).toBe(401);
    fromEnv.stop();
    expect(await fromEnv.code).toBe(0);
  });

  it('--log-level warn logs no request lines', async () => {
    const cli = runCli(['serve', '--port', '0', '--log-level', 'warn']);
    const { url } = await cli.ready;
    await fetch(`${url}/pets`, { headers: { authorization: 'Bearer kennel-dev-key' } });
    cli.stop();
    await cli.code;
    expect(cli.logs()).toEqual([]);
  });
});

describe('kennel serve rejects bad input with exit code 2 and a clear message', () => {
  it.each([
    [['serve', '--port', 'abc'], /--port <port>.*'abc' is invalid.*integer from 0 to 65535/],
    [['serve', '--port', '70000'], /--port.*integer from 0 to 65535/],
    [['serve', '--seed', '-1'], /--seed.*integer/],
    [['serve', '--pets', '1.5'], /--pets.*integer/],
    [['serve', '--log-level', 'loud'], /--log-level.*one of: trace, debug, info, warn, error, fatal, silent/],
    [['serve', '--max-body', 'huge'], /--max-body.*size such as/],
    [['serve', '--bogus'], /unknown option '--bogus'/],
    [['serve', '--api-key'], /--api-key <key>' argument missing/],
    [['serve', 'extra'], /kennel: extra: cannot read the OpenAPI document: no such file/],
    [['serve', 'a.yaml', 'b.yaml'], /too many arguments/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ])('%j', async (argv, message) => {
    const cli = runCli(argv);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(message);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });

  it('a broken spec names file and line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-cli-'));
    const file = path.join(dir, 'broken.yaml');
    writeFileSync(
      file,
      'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: "#/nope"}\n',
    );
    const cli = runCli(['serve', '--port', '0', '--spec', file]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(
      new RegExp(`^kennel: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:9: not a usable OpenAPI document`),
    );
  });

  it('a missing spec file', async () => {
    const cli = runCli(['serve', '--spec', 'nope/absent.yaml']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toBe('kennel: nope/absent.yaml: cannot read the OpenAPI document: no such file\n');
  });

  it('a port already in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const cli = runCli(['serve', '--port', String(port)]);
      expect(await cli.code).toBe(2);
      expect(cli.stderr()).toBe(`kennel: port ${port} on 127.0.0.1 is already in use; choose another with --port\n`);
    } finally {
      blocker.close();
    }
  });

  it('a bad KENNEL_PORT', async () => {
    const cli = runCli(['serve'], { KENNEL_PORT: 'eighty' });
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain('KENNEL_PORT=eighty');
  });

  it('a bad KENNEL_STORE is named as the variable, a bad --store as the flag', async () => {
    const fromEnv = runCli(['serve', '--port', '0'], { KENNEL_STORE: 'junk' });
    expect(await fromEnv.code).toBe(2);
    expect(fromEnv.stderr()).toBe(
      'kennel: KENNEL_STORE=junk: not a URL (redis://host:port, rediss://host:port or unix:///path.sock)\n',
    );
    const scheme = runCli(['serve', '--port', '0'], { KENNEL_STORE: 'http://127.0.0.1:1' });
    expect(await scheme.code).toBe(2);
    expect(scheme.stderr()).toMatch(/^kennel: KENNEL_STORE=http:\/\/127\.0\.0\.1:1: unknown scheme http:/);
    const fromFlag = runCli(['serve', '--port', '0', '--store', 'junk'], { KENNEL_STORE: 'memory' });
    expect(await fromFlag.code).toBe(2);
    expect(fromFlag.stderr()).toContain('kennel: --store junk: not a URL');
  });

  it.each([
    [['--admin-token', ' '], {}, '--admin-token is only whitespace'],
    [['--admin-token', ''], {}, '--admin-token is empty'],
    [[], { KENNEL_ADMIN_TOKEN: ' \t' }, 'KENNEL_ADMIN_TOKEN is only whitespace'],
    [['--admin-token', ' s3cret '], {}, '--admin-token starts or ends with whitespace'],
  ])('refuses an admin token no client can send: %j %j', async (flags, env, message) => {
    const cli = runCli(['serve', '--port', '0', ...flags], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(new RegExp(`^kennel: ${message}`));
    expect(cli.stderr()).not.toContain('s3cret');
  });

  it('an empty KENNEL_ADMIN_TOKEN still means no admin token', async () => {
    const cli = runCli(['serve', '--port', '0', '--log-level', 'silent'], { KENNEL_ADMIN_TOKEN: '' });
    try {
      const { origin } = await cli.ready;
      expect((await fetch(`${origin}/__kennel/health`)).status).toBe(200);
    } finally {
      cli.stop();
      expect(await cli.code).toBe(0);
    }
  });

  it('--help and --version exit 0', async () => {
    const help = runCli(['serve', '--help']);
    expect(await help.code).toBe(0);
    expect(help.stdout()).toContain('--api-key <key>');
    const version = runCli(['--version']);
    expect(await version.code).toBe(0);
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
