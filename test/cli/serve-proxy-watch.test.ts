import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { thingsDocument } from '../helpers/things-document.js';

const DOCUMENT = (required: string): string =>
  thingsDocument(`      required: [${required}]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
        colour: { type: string }
`);

describe('kennel serve --proxy --watch', () => {
  it('a reload changes what the exchanges are judged against; the exit summary counts across it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-proxy-watch-'));
    const served = path.join(dir, 'served.yaml');
    const judged = path.join(dir, 'judged.yaml');
    writeFileSync(served, DOCUMENT('id, name'));
    writeFileSync(judged, DOCUMENT('id, name'));
    const upstream = runCli(['serve', '--port', '0', '--no-world', '--log-level', 'silent', '--spec', served]);
    const { origin } = await upstream.ready;
    const proxy = runCli(
      ['serve', '--port', '0', '--no-world', '--log-level', 'silent', '--spec', judged].concat([
        '--proxy',
        origin,
        '--watch',
      ]),
    );
    try {
      const { url } = await proxy.ready;
      const created = await fetch(`${url}/things`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Rex"}',
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('kennel-violations')).toBeNull();
      const { id } = (await created.json()) as { id: number };

      // The document now requires `colour`, which the deployment does not send.
      writeFileSync(`${judged}.tmp`, DOCUMENT('id, name, colour'));
      renameSync(`${judged}.tmp`, judged);
      await proxy.stderrUntil('kennel: reloaded');
      expect(proxy.stderr()).toContain(
        `kennel: reloaded ${judged}: 2 operations; exchanges are judged against it from now on\n`,
      );

      const read = await fetch(`${url}/things/${id}`);
      expect(read.status).toBe(200);
      expect(read.headers.get('kennel-violations')).toContain('colour');
    } finally {
      proxy.stop();
      upstream.stop();
      await Promise.all([proxy.code, upstream.code]);
    }
    expect(proxy.stderr()).toContain('2 exchanges, 1 broke the document');
  }, 30_000);
});
