// ARCHITECTURE.md's layout names every folder and file of src/, so the map keeps up with the
// territory. Checks and scenario actions are registries, one file each: their folders are named,
// their files are listed by registry.ts and actions/index.ts instead.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REGISTRIES = ['src/contract/checks', 'src/domains/scenario/actions'];

/** The fenced block under "## Layout". */
function layoutBlock(): string {
  const text = readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const block = /^## Layout\n[\s\S]*?^```\n([\s\S]*?)^```/m.exec(text)?.[1];
  if (!block) throw new Error('ARCHITECTURE.md has no ## Layout block');
  return block;
}

const entries = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8', withFileTypes: false });
const folders = entries.filter((entry) => !entry.includes('.')).map((entry) => `src/${entry}`);
const files = entries
  .filter((entry) => entry.endsWith('.ts'))
  .map((entry) => `src/${entry}`)
  .filter((file) => !REGISTRIES.some((registry) => file.startsWith(`${registry}/`)));

describe('ARCHITECTURE.md layout', () => {
  const block = layoutBlock();
  const words = new Set(block.match(/[\w.-]+/g));

  it('names every folder of src/', () => {
    expect(folders.filter((folder) => !block.includes(`${path.basename(folder)}/`))).toEqual([]);
  });

  it('names every file of src/ outside the registries (a new file is placed on the map)', () => {
    const named = (file: string) => {
      const base = path.basename(file).replace(/(\.d)?\.ts$/, '');
      return words.has(base) || words.has(`${base}.ts`);
    };
    expect(files.filter((file) => !named(file))).toEqual([]);
  });
});
