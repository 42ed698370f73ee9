// The V8 flags of a checkout's bin/kennel.js shebang (`#!/usr/bin/env -S node --max-semi-space-size=8`),
// for benches that start kennel as `node FLAGS bin/kennel.js` (the Node of this process, or of the
// checkout's node_modules): they run with what users get, and a change of the shebang reaches them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The flags after `node` on the first line of `bin` (default: this checkout's bin/kennel.js). */
export function shebangNodeFlags(bin = path.join(ROOT, 'bin', 'kennel.js')) {
  const first = readFileSync(bin, 'utf8').split('\n', 1)[0] ?? '';
  const words = first.replace(/^#!/, '').trim().split(/\s+/);
  const node = words.indexOf('node');
  return node === -1 ? [] : words.slice(node + 1);
}
