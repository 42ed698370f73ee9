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
});
