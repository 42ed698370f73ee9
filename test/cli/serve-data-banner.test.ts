import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('kennel serve --data: the banner', () => {
  it('says where the store is saved (a restart that loaded the file would otherwise read as freshly seeded)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'kennel-data-banner-')), 'pets.json');
    const cli = runCli(['serve', '--port', '0', '--no-world', '--log-level', 'silent', '--data', file]);
    await cli.ready;
    expect(cli.stderr()).toContain(
      `  store    in memory, saved to ${file}  (a second after each change and on exit; loaded at start-up)\n`,
    );
    cli.stop();
    expect(await cli.code).toBe(0);
  });
});
