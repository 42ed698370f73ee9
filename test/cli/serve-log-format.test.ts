import { describe, expect, it } from 'vitest';
import { resolveLogFormat } from '../../src/cli/log-format.js';
import { runCli } from '../helpers/cli.js';

async function oneRequest(argv: string[], env: Record<string, string> = {}): Promise<string[]> {
  const cli = runCli(['serve', '--port', '0', ...argv], env);
  const { url } = await cli.ready;
  expect((await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer kennel-dev-key' } })).status).toBe(
    200,
  );
  cli.stop();
  expect(await cli.code).toBe(0);
  return cli.logs();
}

describe('kennel serve --log-format', () => {
  it('pretty: one human line per request (time, level, method, path, status, ms), no JSON', async () => {
    const lines = await oneRequest(['--log-format', 'pretty']);
    const request = lines.filter((line) => line.includes('/v1/pets'));
    expect(request).toHaveLength(1);
    expect(request[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/pets\?limit=1 200 [\d.]+ms \(listPets\)$/);
    expect(lines.some((line) => line.trimStart().startsWith('{'))).toBe(false);
    // No ANSI colours when the output is not a terminal.
    expect(lines.join('\n')).not.toContain('\u001b[');
  });

  it('json: pino JSON lines (the default when the output is not a terminal)', async () => {
    for (const argv of [['--log-format', 'json'], []]) {
      const lines = await oneRequest(argv);
      expect(lines.map((line) => JSON.parse(line) as unknown)).toContainEqual(
        expect.objectContaining({ method: 'GET', url: '/v1/pets?limit=1', status: 200, msg: 'request' }),
      );
    }
  });

  it('KENNEL_LOG_FORMAT=pretty is read; the flag beats it', async () => {
    expect((await oneRequest([], { KENNEL_LOG_FORMAT: 'pretty' })).join('\n')).toMatch(/INFO: GET \/v1\/pets/);
    const lines = await oneRequest(['--log-format', 'json'], { KENNEL_LOG_FORMAT: 'pretty' });
    expect(() => lines.map((line) => JSON.parse(line) as unknown)).not.toThrow();
  });

  it.each([
    [['serve', '--log-format', 'xml'], {}, /--log-format.*one of: json, pretty/],
    [['serve'], { KENNEL_LOG_FORMAT: 'yaml' }, /KENNEL_LOG_FORMAT=yaml must be one of: json, pretty/],
  ])('%j %j: exit 2 with a clear message', async (argv, env, message) => {
    const cli = runCli(argv, env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(message);
  });

  it.each([
    [undefined, undefined, true, 'pretty'],
    [undefined, undefined, false, 'json'],
    [undefined, '', true, 'pretty'],
    [undefined, 'json', true, 'json'],
    ['json', 'pretty', true, 'json'],
    ['pretty', undefined, false, 'pretty'],
  ] as const)('flag %s, env %s, terminal %s: %s', (flag, env, terminal, expected) => {
    expect(resolveLogFormat(flag, env, terminal)).toBe(expected);
  });
});

describe('kennel serve --proxy --log-format pretty', () => {
  it('a violation line reads as what it is (no "undefined" for the status and time it does not carry)', async () => {
    const upstream = runCli(['serve', '--port', '0', '--no-world', '--log-level', 'silent']);
    const { origin } = await upstream.ready;
    const proxy = runCli(['serve', '--port', '0', '--no-world', '--proxy', origin, '--log-format', 'pretty']);
    try {
      const { url } = await proxy.ready;
      const answer = await fetch(`${url}/pets?limit=0`, { headers: { authorization: 'Bearer kennel-dev-key' } });
      expect(answer.status).toBe(400);
      const lines = proxy.logs();
      expect(lines.join('\n')).not.toContain('undefined');
      expect(lines).toContainEqual(
        expect.stringMatching(/^\[[\d:.]+\] WARN: exchange breaks the document: GET \/v1\/pets\?limit=0 \(listPets\)$/),
      );
      expect(lines).toContainEqual(expect.stringMatching(/INFO: GET \/v1\/pets\?limit=0 400 [\d.]+ms \(listPets\)$/));
    } finally {
      proxy.stop();
      upstream.stop();
      await Promise.all([proxy.code, upstream.code]);
    }
  });
});
