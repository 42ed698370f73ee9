// npm pack / npm publish: the package.json that goes into the tarball has no `prepare` script.
// `prepare` builds a checkout (npm ci) and is never run for a registry or tarball install, but npm
// lists it among a consumer's "install scripts not yet covered by allowScripts": noise in every
// project that installs kennel. prepack builds and strips it; postpack puts package.json back.
//
//   node scripts/pack-manifest.js strip | restore
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = path.join(ROOT, 'package.json');
const SAVED = path.join(ROOT, '.package.json.before-pack');

/** The manifest as published: without the scripts only a checkout needs. */
export function publishedManifest(manifest) {
  const { prepare: _prepare, ...scripts } = manifest.scripts ?? {};
  return { ...manifest, scripts };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'strip') {
    copyFileSync(MANIFEST, SAVED);
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    writeFileSync(MANIFEST, `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
  } else if (process.argv[2] === 'restore') {
    if (existsSync(SAVED)) renameSync(SAVED, MANIFEST);
  } else {
    console.error('usage: node scripts/pack-manifest.js strip | restore');
    process.exit(2);
  }
}
