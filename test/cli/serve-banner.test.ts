import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

async function bannerOf(argv: string[]): Promise<{ banner: string; url: string }> {
  const cli = runCli(['serve', '--port', '0', '--log-level', 'silent', '--no-world', ...argv]);
  const { url } = await cli.ready;
  cli.stop();
  expect(await cli.code).toBe(0);
  return { banner: cli.stderr(), url };
}

describe('kennel serve describes the document it serves', () => {
  it('the Pet Store: its title, operations, key, seeded pets and a first request', async () => {
    const { banner, url } = await bannerOf(['--pets', '4']);
    expect(banner).toContain(`API      ${url}  (`);
    expect(banner).toContain(`docs     ${new URL(url).origin}/__kennel/docs  (API reference with try-it panels)`);
    expect(banner).toMatch(/\(\d+ operations under \/v1\)/);
    expect(banner).toContain('API key  kennel-dev-key');
    expect(banner).toContain('data     seeded 4 /pets; seed 1, one store per API key');
    expect(banner).toContain(`try      curl -H 'Authorization: Bearer kennel-dev-key' ${url}/pets?limit=2`);
  });

  it('a document without security: no key needed, no pets, its own first GET', async () => {
    const { banner, url } = await bannerOf(['--spec', fixture('mock-documents/media-types.yaml')]);
    expect(banner).toContain('kennel: serving Media Types 1.0.0');
    expect(banner).toContain('(8 operations under /m)');
    expect(banner).toContain('API key  none needed: the document declares no security');
    expect(banner).not.toContain('pets');
    expect(banner).not.toContain('kennel-dev-key');
    expect(banner).not.toContain('  data ');
    expect(banner).toContain(`try      curl ${url}/notes`);
  });

  it('an apiKey scheme: the first request carries the key where the document puts it', async () => {
    const { banner, url } = await bannerOf(['--spec', fixture('inventory.yaml'), '--api-key', 'k1']);
    expect(banner).toContain('API key  1 configured');
    expect(banner).toContain(`try      curl -H 'X-Api-Key: <your key>' ${url}/items`);
  });

  it('control characters from the document (title, version, server URL, paths) never reach the terminal raw', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-banner-'));
    try {
      const file = path.join(dir, 'hostile.json');
      const document = {
        openapi: '3.0.3',
        info: { title: 'Evil\u001b[2J\nkennel: fake line', version: '1\u0007.0\r' },
        servers: [{ url: 'http://localhost/api\u001bc' }],
        paths: {
          '/notes\u0007': {
            get: {
              operationId: 'listNotes',
              responses: { '200': { description: 'ok', content: { 'text/plain': { example: 'hi' } } } },
            },
          },
        },
      };
      writeFileSync(file, JSON.stringify(document));
      const { banner } = await bannerOf(['--spec', file]);
      expect(banner).toContain('kennel: serving Evil\\u001b[2J kennel: fake line 1\\u0007.0  from');
      // No control character at all but the line breaks the banner puts between its own lines.
      expect(banner).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(banner.split('\n').filter((line) => line.startsWith('kennel: '))).toHaveLength(1);
      expect(banner).toContain('/api\\u001bc/notes\\u0007');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a document without info: a title of its own, then it serves, and stops when asked', async () => {
    const { banner, url } = await bannerOf(['--spec', fixture('mock-documents/path-matching.yaml')]);
    expect(banner).toContain('kennel: serving untitled API (no version)');
    expect(banner).not.toContain('unexpected failure');
    expect(banner).toContain(`API      ${url}  (`);
  });
});

describe("kennel serve takes Prism's switches", () => {
  it('-d answers with values generated afresh; --prism-query reads __example', async () => {
    const argv = ['serve', '--port', '0', '--log-level', 'silent', '--no-world', '--api-key', 'k', '-d'];
    const cli = runCli([...argv, '--prism-query', '--spec', fixture('mock-documents/prism-cases.yaml')]);
    try {
      const { url } = await cli.ready;
      const label = async (query = '') =>
        (await (await fetch(`${url}/labels${query}`, { headers: { 'x-key': 'k' } })).json()) as { name: string };
      const names = new Set([(await label()).name, (await label()).name]);
      expect(names.size).toBe(2);
      expect(await label('?__example=broken')).toEqual({ name: 'x' });
    } finally {
      cli.stop();
    }
    expect(await cli.code).toBe(0);
  });
});
