// npm run docs:reference: writes docs/reference-cli.md and docs/reference-admin.md from the built
// CLI (dist/) and spec/*.yaml. `--check` writes nothing and exits 1 when a file is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { renderAdminReference, renderCliReference } from './reference-tables.js';

const root = new URL('..', import.meta.url);
const { program } = await import(new URL('dist/cli/main.js', root).href);
const quiet = { write: () => true };
const cli = program({ env: {}, stdout: quiet, stderr: quiet, signal: new AbortController().signal }, () => {});
const spec = (file) => parse(readFileSync(new URL(`spec/${file}`, root), 'utf8'));
const files = {
  'docs/reference-cli.md': renderCliReference(cli),
  'docs/reference-admin.md': renderAdminReference({ admin: spec('admin.yaml'), world: spec('domains.yaml') }),
};

const check = process.argv.includes('--check');
let stale = 0;
for (const [file, text] of Object.entries(files)) {
  const url = new URL(file, root);
  let current = '';
  try {
    current = readFileSync(url, 'utf8');
  } catch {
    // Not written yet.
  }
  if (current === text) continue;
  if (check) {
    console.error(`${file} is out of date: run npm run docs:reference`);
    stale += 1;
  } else {
    writeFileSync(url, text);
    console.log(`wrote ${file}`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
