import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld } from '../helpers/world-client.js';

// A QA engineer's own scenario, sent in the body of POST /scenario, is validated exactly like a
// scenario file (errors name the line) and replaces the live world like a bundled one.
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({});
});
afterAll(() => mock.close());

const call = (method: string, path: string, body?: unknown) => callWorld(mock.origin, method, path, body);

const OWN = `description: My own case, a subdomain at ClassicDNS.
given:
  zones:
    - apex: example.net
      provider: classicdns
steps:
  - add-domain: docs.example.net
  - add-record: { name: docs.example.net, type: CNAME, value: petstore-docs.kennel-pages.dev, ttl: 3600 }
  - advance: 15m
  - name: verified
    verify: docs.example.net
    expect:
      domain: { dns: verified }
  - advance: 6m
  - check: docs.example.net
    expect:
      domain: { certificate: issued }
`;

describe('POST /scenario with a scenario in the body', () => {
  it('plays a YAML scenario and leaves its world live', async () => {
    const loaded = await call('POST', '/scenario', { source: OWN, name: 'my-case' });
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({
      name: 'my-case',
      passed: true,
      description: 'My own case, a subdomain at ClassicDNS.',
    });
    expect(loaded.body.played).toHaveLength(6);
    expect((await call('GET', '/domains/docs.example.net')).body.certificate.state).toBe('issued');
    expect((await call('GET', '/zones/example.net')).body.provider).toBe('classicdns');
  });

  it('accepts JSON text too, and stops after a named step (upTo)', async () => {
    const json = JSON.stringify({
      description: 'JSON',
      given: { zones: [{ apex: 'example.net', provider: 'classicdns' }] },
      steps: [
        { 'add-domain': 'docs.example.net' },
        { name: 'added', check: 'docs.example.net', expect: { domain: { dns: 'pending' } } },
        { advance: '1h' },
      ],
    });
    const loaded = await call('POST', '/scenario', { source: json, upTo: 'added' });
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({ name: 'scenario', upTo: 'added', passed: true });
    expect(loaded.body.played.map((step: { index: number }) => step.index)).toHaveLength(2);
  });

  it('a failing expectation is played and reported, not refused', async () => {
    const loaded = await call('POST', '/scenario', {
      source: OWN.replace('certificate: issued', 'certificate: timed_out'),
    });
    expect(loaded.status).toBe(200);
    expect(loaded.body.passed).toBe(false);
    expect(loaded.body.played.at(-1).failures).not.toEqual([]);
  });

  it.each([
    ['invalid YAML', 'steps: [\n  - advance: 1m\n  {', /^source:\d+:\d+: invalid YAML/],
    [
      'an unknown key, on its line',
      OWN.replace('    expect:\n      domain: { dns: verified }', '    expcet: {}'),
      /^source:12: unknown key "expcet"/,
    ],
    ['a missing key', 'steps:\n  - advance: 1m\n', /^source:1: missing required key "description"/],
    ['an unknown action', OWN.replace('  - advance: 6m', '  - wait: 6m'), /^source:14: unknown key "wait"/],
    ['not a scenario at all', '42', /^source:1: /],
    [
      'an alias bomb (9^6 nodes from a few lines)',
      `a: &a [x, x, x, x, x, x, x, x, x]\n${['b', 'c', 'd', 'e', 'f']
        .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdef'[index]}`).join(', ')}]`)
        .join('\n')}\ndescription: bomb\nsteps: [*f]\n`,
      /^source:2:\d+: invalid YAML: .*alias/i,
    ],
  ])('%s → 400 invalid_scenario naming the line', async (_what, source, message) => {
    const refused = await call('POST', '/scenario', { source });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_scenario');
    expect(refused.body.message).toMatch(message);
  });

  it('upTo a step the posted scenario lacks → 404 step_not_found', async () => {
    const refused = await call('POST', '/scenario', { source: OWN, upTo: 'nowhere' });
    expect(refused).toMatchObject({ status: 404, body: { code: 'step_not_found' } });
    expect(refused.body.message).toContain('verified');
  });

  it('neither name nor source → 400', async () => {
    expect((await call('POST', '/scenario', { upTo: 'x' })).status).toBe(400);
  });
});
