import { describe, expect, it } from 'vitest';
import { freePort, runCli } from '../helpers/cli.js';

describe('kennel serve short flags: -p is --port, -h is --host, help is --help', () => {
  it('-p <port> -h <host> bind where they say', async () => {
    const port = await freePort();
    // 127.0.0.2 is loopback too on Linux, and unlike the default it proves -h was read.
    const cli = runCli(['serve', '-p', String(port), '-h', '127.0.0.2', '--log-level', 'silent']);
    const { origin } = await cli.ready;
    expect(origin).toBe(`http://127.0.0.2:${port}`);
    expect((await fetch(`${origin}/__kennel/health`)).status).toBe(200);
    cli.stop();
    expect(await cli.code).toBe(0);
  });

  it('serve --help lists both short flags and exits 0', async () => {
    const cli = runCli(['serve', '--help']);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toMatch(/-h, --host <host>/);
    expect(cli.stdout()).toMatch(/-p, --port <port>/);
    expect(cli.stdout()).toMatch(/--help +display help for command/);
  });

  it('serve -h without a value is a missing argument, not help (exit 2)', async () => {
    const cli = runCli(['serve', '-h']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/'-h, --host <host>' argument missing/);
  });

  it("serve -h '' is refused (Node would bind every interface), exit 2", async () => {
    const cli = runCli(['serve', '-p', '0', '-h', '', '--no-world']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/'-h, --host <host>' argument '' is invalid\. must name an interface/);
  });

  it('serve -h with a name that does not resolve blames the host, not the port', async () => {
    const cli = runCli(['serve', '-p', '0', '-h', 'no-such-host.invalid', '--no-world']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(
      /host no-such-host\.invalid is not found \((ENOTFOUND|EAI_AGAIN)\); choose another with --host/,
    );
  });

  it('kennel -h (no command) is still help', async () => {
    const cli = runCli(['-h']);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toMatch(/Usage: kennel/);
  });
});
