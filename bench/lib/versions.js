// The versions a bench run measured, for .bench/results.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Node, kennel, the baseline's Koa and router, autocannon and Prism, as installed under `root`. */
export function versions(root, prism) {
  const versionOf = (name) => {
    try {
      return JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  return {
    node: process.version,
    kennel: JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version,
    koa: versionOf('koa'),
    '@koa/router': versionOf('@koa/router'),
    autocannon: versionOf('autocannon'),
    prism: prism.version,
  };
}
