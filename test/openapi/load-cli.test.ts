import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, runCli } from '../helpers/cli.js';

const fixture = (name: string) => path.resolve('test/fixtures/openapi', name);

describe('load warnings and document-level messages reach the user', () => {
  it('kennel serve prints each load warning as `kennel: warning: file:line: …` and serves', async () => {
    const file = fixture('imperfect.yaml');
    const cli = runCli(['serve', '--spec', file, '--port', '0', '--api-key', 'k', '--log-level', 'silent']);
    const { url } = await cli.ready;
    const response = await fetch(`${url}/things`, { headers: { authorization: 'Bearer k' } });
    cli.stop();
    expect(await cli.code).toBe(0);
    expect(response.status).toBe(200);
    expect(cli.stderr()).toContain(
      `kennel: warning: ${file}:11: not valid OpenAPI 3.1.0: #/paths/~1things/get/responses/200/descriptionn unknown field \`descriptionn\` (kennel goes on)\n`,
    );
  });

  it('kennel serve starts on a webhooks-only document and says only the admin API answers', async () => {
    const cli = runCli(['serve', '--spec', fixture('webhooks-only.yaml'), '--port', '0', '--log-level', 'silent']);
    const { origin } = await cli.ready;
    const health = await fetch(`${origin}/__kennel/health`);
    cli.stop();
    expect(await cli.code).toBe(0);
    expect(health.status).toBe(200);
    expect(cli.stderr()).toContain('the document has no operations (no paths): only the admin API answers');
  });

  it('kennel check prints load warnings, and on a webhooks-only document says there is nothing to check (exit 2)', async () => {
    const port = await freePort();
    const base = ['check', '--base-url', `http://127.0.0.1:${port}`, '--api-key', 'k'];
    const webhooks = runCli([...base, '--spec', fixture('webhooks-only.yaml')]);
    expect(await webhooks.code).toBe(2);
    expect(webhooks.stderr()).toContain(
      `${fixture('webhooks-only.yaml')}:1: the document has no operations to check (no paths: webhooks are not called)`,
    );
    expect(webhooks.stderr()).not.toContain('--operation');
    const swagger = runCli([...base, '--spec', fixture('swagger2.yaml')]);
    await swagger.code;
    expect(swagger.stderr()).toContain(
      `kennel: warning: ${fixture('swagger2.yaml')}:1: Swagger 2.0 document converted`,
    );
  });
});
