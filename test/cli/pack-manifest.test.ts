import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of scripts/, without types
import { publishedManifest } from '../../scripts/pack-manifest.js';

describe('the package.json that npm pack publishes', () => {
  it('has no prepare script: consumers are not told about an install script that never runs', () => {
    const manifest = {
      name: 'kennel-openapi',
      scripts: { prepare: 'node scripts/prepare.js', build: 'tsc' },
      bin: { kennel: 'bin/kennel.js' },
    };
    expect(publishedManifest(manifest)).toEqual({
      name: 'kennel-openapi',
      scripts: { build: 'tsc' },
      bin: { kennel: 'bin/kennel.js' },
    });
  });
});
