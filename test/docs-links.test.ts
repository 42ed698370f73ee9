// Every relative link of the README, ARCHITECTURE, CONTRIBUTING and docs/ reaches a file, and every #anchor a heading.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  'ARCHITECTURE.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown outside fenced blocks (a console transcript is not a link). */
const prose = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.matchAll(/^#+\s+(.*)$/gm)) {
    const slug = heading!
      .replace(/`/g, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug);
    seen.set(slug, (count ?? -1) + 1);
    anchors.add(count === undefined ? slug : `${slug}-${count + 1}`);
  }
  return anchors;
}

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const [, link] of prose(file).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(link!)) continue;
    const [target, anchor] = link!.split('#');
    const resolved = target ? path.join(path.dirname(file), target) : file;
    if (!existsSync(path.join(ROOT, resolved))) broken.push(`${link}: no ${resolved}`);
    else if (anchor && resolved.endsWith('.md') && !anchorsOf(prose(resolved)).has(anchor))
      broken.push(`${link}: no heading #${anchor} in ${resolved}`);
  }
  return broken;
}

describe('documentation links', () => {
  it.each(PAGES)('%s: every relative link and anchor resolves', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('anchors follow GitHub: code marks and punctuation dropped, repeats numbered', () => {
    expect([...anchorsOf('## Reloading on save (`--watch`)\n### Flags\n### Flags\n')]).toEqual([
      'reloading-on-save---watch',
      'flags',
      'flags-1',
    ]);
  });
});
