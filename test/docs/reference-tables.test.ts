// The generated reference (docs/reference-cli.md, docs/reference-admin.md) matches what kennel
// declares today, and spec/admin.yaml matches the admin routes the mock registers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderAdminReference, renderCliReference } from '../../scripts/reference-tables.js';
import { program } from '../../src/cli/main.js';
import { runContract, startMock, type RunningMock } from '../../src/index.js';
import { adminRouter } from '../../src/mock/admin/admin-routes.js';
import { chaosAdminRouter } from '../../src/mock/chaos/chaos-admin.js';
import { nowAdminRouter } from '../../src/mock/time/now-admin.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

interface AdminDocument {
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
}
const admin = parse(read('spec/admin.yaml')) as AdminDocument;
const world = parse(read('spec/domains.yaml')) as unknown;

function cliProgram() {
  const quiet = { write: () => true };
  return program(
    { env: {}, stdout: quiet, stderr: quiet, logStream: quiet, signal: new AbortController().signal },
    () => {},
  );
}

describe('generated reference tables', () => {
  it('docs/reference-cli.md is what the commands declare (npm run docs:reference rewrites it)', () => {
    expect(read('docs/reference-cli.md')).toBe(renderCliReference(cliProgram()));
  });

  it('docs/reference-admin.md is what spec/admin.yaml and spec/domains.yaml say', () => {
    expect(read('docs/reference-admin.md')).toBe(renderAdminReference({ admin, world }));
  });

  it('a flag added to a command changes the table, so a stale file fails', () => {
    const changed = cliProgram();
    changed.commands.find((command) => command.name() === 'check')!.option('--brand-new', 'a flag nobody documented');
    expect(renderCliReference(changed)).toContain('`--brand-new` | a flag nobody documented |');
    expect(read('docs/reference-cli.md')).not.toContain('--brand-new');
  });
});

describe('spec/admin.yaml', () => {
  const documented = Object.keys(admin.paths).map((route) => `${admin.servers[0]!.url}${route}`);

  it('documents exactly the paths the admin routers register', () => {
    // Only the routes' paths are read: nothing is served by these routers here.
    const routers: Router[] = [
      adminRouter({ spec: undefined, config: {}, store: undefined, journal: undefined } as never),
      chaosAdminRouter({ engine: undefined, operationIds: [], adminToken: undefined, maxBodyBytes: 0 } as never),
      nowAdminRouter(undefined as never, undefined, 0),
    ];
    const registered = new Set(routers.flatMap((router) => router.stack.map((layer) => String(layer.path))));
    expect([...registered].sort()).toEqual([...documented].sort());
  });

  describe('against a running kennel serve', () => {
    let mock: RunningMock;
    beforeAll(async () => {
      mock = await startMock({ world: false });
    });
    afterAll(() => mock.close());

    it('kennel check --spec spec/admin.yaml finds the admin API conforming (it checks its own document)', async () => {
      const summary = await runContract({
        specPath: path.join(ROOT, 'spec', 'admin.yaml'),
        baseUrl: `${mock.origin}${admin.servers[0]!.url}`,
        apiKey: '', // no admin token: the admin API asks for none, as `kennel check` without --api-key
        seed: 7,
      });
      const findings = summary.cases.flatMap((result) =>
        result.failures.map((failure) => `${result.operationId} ${result.check}: ${failure.title}`),
      );
      expect(findings).toEqual([]);
      expect(summary.exitCode).toBe(0);
    });

    it.each(Object.entries(admin.paths))('%s takes exactly the documented methods', async (route, item) => {
      const response = await fetch(`${mock.origin}${admin.servers[0]!.url}${route}`, { method: 'OPTIONS' });
      const methods = METHODS.filter((method) => method in item).map((method) => method.toUpperCase());
      const expected = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
      expect(response.status).toBe(204);
      expect(response.headers.get('allow')!.split(', ').sort()).toEqual(expected.sort());
    });
  });
});
