// A smoke run of kennel on the Node that runs this script (CI runs it on Node 22, the lowest
// supported): serve, check, scenario and the library, each through its public entry point.
//
//   node scripts/smoke.js        exit 0 when all four work, 1 with the first that did not
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'kennel.js');
const KEY = 'smoke-key';

/** Runs `kennel <args>` to its end: exit code and output. */
function kennel(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Starts `kennel serve` on a free port and resolves with its base URL once the banner is out. */
function serve() {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--api-key', KEY, '--no-world'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kennel serve did not start:\n${output}`)), 30_000);
    const read = (chunk) => {
      output += chunk;
      const match = /API\s+(http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ baseUrl: match[1], stop: () => child.kill('SIGTERM') });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`kennel serve exited ${code}:\n${output}`)));
  });
}

async function step(name, body) {
  const started = Date.now();
  await body();
  console.log(`ok    ${name} (${Date.now() - started} ms)`);
}

function expectExit(result, code, what) {
  if (result.code !== code) throw new Error(`${what}: exit ${result.code}, expected ${code}\n${result.output}`);
}

async function main() {
  console.log(`kennel smoke run on Node ${process.versions.node}`);
  const served = await serve();
  try {
    await step('serve answers an authenticated list', async () => {
      const response = await fetch(`${served.baseUrl}/pets?limit=2`, { headers: { authorization: `Bearer ${KEY}` } });
      if (response.status !== 200) throw new Error(`GET /pets answered ${response.status}`);
    });
    await step('check finds the served document conforming', async () => {
      const result = await kennel(['check', '--base-url', served.baseUrl, '--api-key', KEY, '--seed', '1']);
      expectExit(result, 0, 'kennel check');
    });
  } finally {
    served.stop();
  }
  await step('scenario runs the scenario library', async () => {
    expectExit(await kennel(['scenario', 'run']), 0, 'kennel scenario run');
  });
  await step('library: startMock and runContract', async () => {
    const { startMock, runContract } = await import(pathToFileURL(path.join(ROOT, 'dist', 'index.js')).href);
    const mock = await startMock({ apiKeys: [KEY] });
    try {
      const summary = await runContract({ baseUrl: mock.url, apiKey: KEY, seed: 1 });
      if (summary.exitCode !== 0) throw new Error(`runContract: exit ${summary.exitCode}`);
    } finally {
      await mock.close();
    }
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`FAIL  ${error.message}`);
    process.exit(1);
  },
);
