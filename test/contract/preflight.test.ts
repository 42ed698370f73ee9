import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';

// Verdicts about the run itself: a wrong key or a wrong base URL is the run's fault (exit 2, saying
// which), decided with documented operations before anything is judged.
let mock: RunningMock;
let notAnApi: Server;
let notAnApiUrl: string;
beforeAll(async () => {
  mock = await startMock({ apiKeys: ['right-key'] });
  notAnApi = createServer((_request, response) =>
    response.writeHead(404, { 'content-type': 'text/plain' }).end('nope'),
  );
  await new Promise<void>((resolve) => notAnApi.listen(0, '127.0.0.1', resolve));
  notAnApiUrl = `http://127.0.0.1:${(notAnApi.address() as { port: number }).port}/api`;
});
afterAll(async () => {
  await mock.close();
  await new Promise((resolve) => notAnApi.close(resolve));
});

describe('kennel check decides whether the run can judge before it judges', { timeout: 60_000 }, () => {
  it('a wrong key: exit 2, every request with the key got 401, nothing judged', async () => {
    const cli = runCli(['check', '--base-url', mock.url, '--api-key', 'wrong-key', '--seed', '1']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/every request with the key got 401 \(GET \/pets.*\): is the key right\?/);
    expect(cli.stdout()).toMatch(/could not judge: every request with the key got 401/);
    expect(cli.stdout()).not.toMatch(/^ +(skip|ok|FAIL) /m);
  });

  it('a base URL without the base path: exit 2 naming the right one', async () => {
    const cli = runCli(['check', '--base-url', mock.origin, '--api-key', 'right-key', '--seed', '1']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(
      `GET /pets answered 404 at ${mock.origin} and 200 at ${mock.origin}/v1: did you mean --base-url ${mock.origin}/v1?`,
    );
  });

  it('a server where nothing of the document answers: exit 2, is it the base URL of this API?', async () => {
    const cli = runCli(['check', '--base-url', notAnApiUrl, '--api-key', 'right-key', '--seed', '1']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(
      /every documented operation tried answered 404 at .*\/api \(GET \/pets.*\): is it the base URL of this API\?/,
    );
  });

  it('the right key at the right base URL: the run goes on and judges (exit 0)', async () => {
    const cli = runCli(['check', '--base-url', mock.url, '--api-key', 'right-key', '--seed', '1']);
    expect(await cli.code, cli.stderr()).toBe(0);
    expect(cli.stdout()).toMatch(/\d+ passed/);
  });
});
