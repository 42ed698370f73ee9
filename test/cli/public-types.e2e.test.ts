// kennel's public types need nothing from devDependencies: a consumer with only kennel's
// dependencies installed (no @types/koa, no vitest) compiles against dist/index.d.ts with
// skipLibCheck off, and runs runContract() with the CLI's defaults. Uses dist/.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const consumer = mkdtempSync(path.join(tmpdir(), 'kennel-consumer-'));

const CONSUMER_SOURCE = `import { runContract, startMock, type ContractOptions, type Finding, type RunSummary } from 'kennel-openapi';

const mock = await startMock({ seed: 1 });
const options: ContractOptions = { baseUrl: mock.url, apiKey: mock.apiKeys[0]!, checks: ['auth-enforced'] };
const summary: RunSummary = await runContract(options);
const findings: Finding[] = summary.cases.flatMap((result) => result.failures);
console.log(JSON.stringify({ exitCode: summary.exitCode, seed: summary.seed, spec: summary.specFile, findings: findings.length }));
await mock.close();
`;

beforeAll(async () => {
  // kennel as `npm install` would lay it out (package.json "files"), then its production dependencies.
  const kennel = path.join(consumer, 'node_modules', 'kennel-openapi');
  mkdirSync(kennel, { recursive: true });
  for (const entry of ['package.json', 'bin', 'dist', 'spec', 'fixtures'])
    cpSync(path.join(ROOT, entry), path.join(kennel, entry), { recursive: true });
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT });
  const topLevel = stdout
    .split('\n')
    .filter(
      (line) => /\/node_modules\/(@[^/]+\/)?[^/@]+$/.test(line) && line.startsWith(path.join(ROOT, 'node_modules')),
    )
    .filter((line) => !line.slice(path.join(ROOT, 'node_modules').length + 1).includes('/node_modules/'));
  expect(topLevel.length).toBeGreaterThan(20);
  for (const source of topLevel) {
    const target = path.join(consumer, 'node_modules', path.relative(path.join(ROOT, 'node_modules'), source));
    mkdirSync(path.dirname(target), { recursive: true });
    await run('cp', ['-al', source, target]).catch(() => run('cp', ['-r', source, target]));
  }
  writeFileSync(
    path.join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', type: 'module', private: true }),
  );
  writeFileSync(
    path.join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2024',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      include: ['index.ts'],
    }),
  );
  writeFileSync(path.join(consumer, 'index.ts'), CONSUMER_SOURCE);
}, 60_000);

describe('kennel as a dependency', () => {
  it('has no devDependency in its installed tree', async () => {
    const { stdout } = await run('ls', [path.join(consumer, 'node_modules', '@types')]);
    expect(stdout.split('\n')).not.toContain('koa');
  });

  it('compiles for a consumer with only its dependencies installed (dist/index.d.ts, skipLibCheck off)', async () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', consumer]).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe('');
  }, 60_000);

  it('runs runContract() with the CLI defaults: the bundled spec, a random seed', async () => {
    const { stdout } = await run(process.execPath, ['index.ts'], { cwd: consumer });
    const outcome = JSON.parse(stdout) as { exitCode: number; seed: number; spec: string; findings: number };
    expect(outcome).toMatchObject({ exitCode: 0, findings: 0 });
    expect(Number.isInteger(outcome.seed)).toBe(true);
    expect(outcome.spec).toBe(path.join(consumer, 'node_modules', 'kennel-openapi', 'spec', 'petstore.yaml'));
  }, 60_000);
});
