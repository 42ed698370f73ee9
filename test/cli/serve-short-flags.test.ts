import { describe, expect, it } from 'vitest';
import { freePort, runCli } from '../helpers/cli.js';

describe('kennel serve short flags: -p is --port, -h is help, --host has no short flag', () => {
  it('-p <port> --host <host> bind where they say', async () => {
    const port = await freePort();
    // 127.0.0.2 is loopback too on Linux, and unlike the default it proves --host was read.
    const cli = runCli(['serve', '-p', String(port), '--host', '127.0.0.2', '--log-level', 'silent']);
    const { origin } = await cli.ready;
    expect(origin).toBe(`http://127.0.0.2:${port}`);
    expect((await fetch(`${origin}/__kennel/health`)).status).toBe(200);
    cli.stop();
    expect(await cli.code).toBe(0);
  });

  it('serve -h is help, as everywhere, and exits 0', async () => {
    const cli = runCli(['serve', '-h']);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toMatch(/ {2}--host <host>/);
    expect(cli.stdout()).toMatch(/-p, --port <port>/);
    expect(cli.stdout()).toMatch(/-h, --help +display help for command/);
  });

  it("serve --host '' is refused (Node would bind every interface), exit 2", async () => {
    const cli = runCli(['serve', '-p', '0', '--host', '', '--no-world']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/'--host <host>' argument '' is invalid\. must name an interface/);
  });

  it('serve --host with a name that does not resolve blames the host, not the port', async () => {
    const cli = runCli(['serve', '-p', '0', '--host', 'no-such-host.invalid', '--no-world']);
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
