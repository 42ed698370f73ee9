import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// Chaos and the virtual now act on the mock's own answers; a proxied answer is the deployment's.
describe('kennel serve --proxy with chaos or a virtual now', () => {
  it.each([
    [['--fault', '503'], {}, '--fault'],
    [['--latency', '2s'], {}, '--latency'],
    [['--now', '2030-12-06'], {}, '--now'],
    [[], { KENNEL_NOW: '2030-12-06' }, 'KENNEL_NOW'],
  ])('%j %j: exit 2 naming the flag, nothing listens', async (argv, env, name) => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--proxy', 'http://127.0.0.1:9', ...argv], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(`kennel: ${name}`);
    expect(cli.stderr()).toContain('not with --proxy');
    expect(cli.stderr()).not.toContain('proxying to');
  });

  it('--proxy alone still starts, and names the reference it serves', async () => {
    const cli = runCli([
      'serve',
      '--port',
      '0',
      '--no-world',
      '--proxy',
      'http://127.0.0.1:9',
      '--log-level',
      'silent',
    ]);
    await cli.ready;
    expect(cli.stderr()).toContain('kennel: proxying to http://127.0.0.1:9');
    // The reference is served in proxy mode too, and the banner says where.
    const { origin } = await cli.ready;
    expect(cli.stderr()).toContain(
      `  docs     ${origin}/__kennel/docs  (API reference; its try-it panels go through the proxy)`,
    );
    expect((await fetch(`${origin}/__kennel/docs`)).status).toBe(200);
    cli.stop();
    expect(await cli.code).toBe(0);
  });
});
