// Path parameters are written and read in their style (matrix, label, simple; exploded or not).
// Found by the generated documents (test/generated): kennel check wrote every path value plain
// (`/grid/5` for `;cell=5`) and kennel serve read no object from a path, so none ever succeeded.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { styledPathValue } from '../../src/openapi/parameter-style.js';

const SPEC = fileURLToPath(new URL('../fixtures/contract/path-styles.yaml', import.meta.url));

describe('a path parameter as its style writes it', () => {
  it.each([
    ['simple', false, '5', '5'],
    ['simple', false, ['3', '4'], '3,4'],
    ['simple', false, { x: '1', y: '2' }, 'x,1,y,2'],
    ['simple', true, { x: '1', y: '2' }, 'x=1,y=2'],
    ['label', false, '5', '.5'],
    ['label', false, ['3', '4'], '.3,4'],
    ['label', true, ['3', '4'], '.3.4'],
    ['label', true, { x: '1', y: '2' }, '.x=1.y=2'],
    ['matrix', false, '5', ';cell=5'],
    ['matrix', false, ['3', '4'], ';cell=3,4'],
    ['matrix', true, ['3', '4'], ';cell=3;cell=4'],
    ['matrix', true, { x: '1', y: '2' }, ';x=1;y=2'],
    ['simple', false, 'a,b/c', 'a%2Cb%2Fc'],
  ] as const)('%s (explode %s) %j is %s', (style, explode, value, expected) => {
    expect(styledPathValue('cell', style, explode, value)).toBe(expected);
  });

  it('kennel check reaches the styled operations of kennel serve, and finds nothing', async () => {
    const mock = await startMock({ specPath: SPEC, port: 0, apiKeys: ['k'], world: false });
    try {
      const summary = await runContract({ baseUrl: mock.url, apiKey: 'k', specPath: SPEC, seed: 1 });
      const errors = summary.cases.flatMap((result) =>
        result.failures.filter((finding) => finding.severity === 'error').map((finding) => finding.title),
      );
      expect(errors).toEqual([]);
      // The object ones are read only by ids the run knows (none here); their reading is pinned below.
      const unsucceeded = summary.coverage!.unsucceeded.map((operation) => operation.operationId);
      expect(unsucceeded.filter((id) => id === 'getGridCell' || id === 'getPalette')).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it.each([
    ['/grid/;cell=5', 200],
    ['/grid/5', 404],
    ['/palettes/.1.2', 200],
    ['/points/x=1,y=2', 200],
    ['/points/1,2', 404],
    ['/boxes/.w,3', 200],
  ])('kennel serve reads %s: %i', async (path, status) => {
    const mock = await startMock({ specPath: SPEC, port: 0, world: false });
    try {
      expect((await fetch(`${mock.url}${path}`)).status).toBe(status);
    } finally {
      await mock.close();
    }
  });
});
