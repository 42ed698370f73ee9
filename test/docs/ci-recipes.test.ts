import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startMock, type RunningMock } from '../../src/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TASKS = path.join(ROOT, 'test', 'fixtures', 'contract', 'tasks.yaml');
const KEY = 'ci-key';

/** The YAML blocks of docs/ci.md, by the heading above them. */
function recipes(): Map<string, unknown> {
  const text = readFileSync(path.join(ROOT, 'docs', 'ci.md'), 'utf8');
  const found = new Map<string, unknown>();
  for (const match of text.matchAll(/^## (.+)\n[\s\S]*?```yaml\n([\s\S]*?)```/gm))
    found.set(match[1]!, parse(match[2]!));
  return found;
}

/** `"$NAME"` and `$NAME` replaced from `env`, then split into words (double quotes only, as the recipes use). */
function words(line: string, env: Record<string, string>): string[] {
  const expanded = line.replace(/\$\{?(\w+)\}?/g, (_all, name: string) => env[name] ?? '');
  return [...expanded.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);
}

let mock: RunningMock;
let workspace: string;
beforeAll(async () => {
  mock = await startMock({ specPath: TASKS, apiKeys: [KEY] });
  workspace = mkdtempSync(path.join(os.tmpdir(), 'kennel-ci-'));
  copyFileSync(TASKS, path.join(workspace, 'openapi.yaml'));
});
afterAll(async () => {
  await mock.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** Runs a recipe's `npx kennel check …` line in the workspace, as the CI job would; resolves with its exit code. */
/** The mock runs in this process: the check runs beside it, never blocking it (no spawnSync). */
function runCheckLine(line: string): Promise<number | null> {
  const env = { KENNEL_BASE_URL: mock.url, KENNEL_API_KEY: KEY };
  const [npx, kennel, ...args] = words(line, env);
  expect([npx, kennel]).toEqual(['npx', 'kennel']);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(ROOT, 'bin', 'kennel.js'), ...args, '--seed', '3'],
      { cwd: workspace, env: { ...process.env, ...env } },
      (_error, _stdout, stderr) => {
        if (child.exitCode !== 0) console.log(stderr);
        resolve(child.exitCode);
      },
    );
  });
}

function expectJunit(file: string): void {
  const xml = readFileSync(path.join(workspace, file), 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml);
  expect(Number(parsed.testsuites['@_tests'])).toBeGreaterThan(0);
  expect(parsed.testsuites['@_failures']).toBe('0');
}

describe('the CI recipes of docs/ci.md, run against a real document and deployment', { timeout: 60_000 }, () => {
  it('GitHub Actions: the check step writes the report the JUnit action publishes', async () => {
    const workflow = recipes().get('GitHub Actions') as {
      jobs: { contract: { steps: { run?: string; uses?: string; with?: Record<string, string> }[] } };
    };
    const steps = workflow.jobs.contract.steps;
    const check = steps.find((step) => step.run?.startsWith('npx kennel check'))!;
    expect(await runCheckLine(check.run!)).toBe(0);
    const publish = steps.find((step) => step.uses?.startsWith('mikepenz/action-junit-report'))!;
    expectJunit(publish.with!.report_paths!);
  });

  it('GitLab CI: the script writes the report artifacts:reports:junit names', async () => {
    const pipeline = recipes().get('GitLab CI') as {
      contract: { script: string[]; artifacts: { when: string; reports: { junit: string } } };
    };
    const line = pipeline.contract.script.find((item) => item.startsWith('npx kennel check'))!;
    expect(await runCheckLine(line)).toBe(0);
    expect(pipeline.contract.artifacts.when).toBe('always');
    expectJunit(pipeline.contract.artifacts.reports.junit);
  });
});
