// The authentication checks derive everything from the operation's security schemes: HTTP Basic
// and API keys in a header, the query or a cookie work as Bearer does. A small server for a small
// document, correct or with one fault, and kennel serve on another document.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { SCENARIO_CHECKS } from '../../src/contract/checks/registry.js';
import { startMock } from '../../src/serve/server.js';

const AUTH_CHECKS = [
  'auth-enforced',
  'auth-scheme-case-insensitive',
  'auth-before-validation',
  'auth-challenge-present',
];
const KEY = 'gadget-key-123';

function operation(id: string, scheme: string): string {
  return `
    get:
      operationId: ${id}
      security: [{ ${scheme}: [] }]
      parameters:
        - { name: weight, in: query, schema: { type: integer, minimum: 1, maximum: 10 } }
      responses:
        '200':
          description: gadgets
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Gadget' } } } }
        '400': { $ref: '#/components/responses/Problem' }
        '401': { $ref: '#/components/responses/Problem' }`;
}

const SPEC = `
openapi: 3.1.0
info: { title: Gadgets, version: 1.0.0 }
servers: [{ url: http://localhost/api }]
paths:
  /basic:${operation('basicGadgets', 'basic')}
  /header:${operation('headerGadgets', 'headerKey')}
  /query:${operation('queryGadgets', 'queryKey')}
  /cookie:${operation('cookieGadgets', 'cookieKey')}
components:
  securitySchemes:
    basic: { type: http, scheme: basic }
    headerKey: { type: apiKey, in: header, name: X-Api-Key }
    queryKey: { type: apiKey, in: query, name: api_key }
    cookieKey: { type: apiKey, in: cookie, name: session }
  schemas:
    Gadget: { type: object, required: [name], properties: { name: { type: string } } }
    Problem: { type: object, required: [message], properties: { message: { type: string } } }
  responses:
    Problem:
      description: a problem
      content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } }
`;

const specPath = path.join(mkdtempSync(path.join(tmpdir(), 'kennel-auth-')), 'gadgets.yaml');
writeFileSync(specPath, SPEC);

type Fault = 'basic-challenges-bearer' | 'basic-scheme-exact' | 'query-key-prefix' | 'cookie-validation-first';

/** The credential a request carries for its path, as the server reads it. */
function credential(req: IncomingMessage, url: URL, fault: Fault | undefined): string | undefined {
  switch (url.pathname) {
    case '/api/basic': {
      const pattern = fault === 'basic-scheme-exact' ? /^Basic ([\w+/=]+)$/ : /^basic +([\w+/=]+) *$/i;
      const match = pattern.exec(req.headers.authorization ?? '');
      return match
        ? Buffer.from(match[1]!, 'base64')
            .toString()
            .replace(/^kennel:/, '')
        : undefined;
    }
    case '/api/header':
      return req.headers['x-api-key'] as string | undefined;
    case '/api/query':
      return url.searchParams.get('api_key') ?? undefined;
    default:
      return /(?:^|; )session=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
  }
}

function answer(req: IncomingMessage, res: ServerResponse, fault: Fault | undefined): void {
  const url = new URL(req.url ?? '/', 'http://gadgets.invalid');
  const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
  const weight = url.searchParams.get('weight');
  const invalid = weight !== null && !/^(10|[1-9])$/.test(weight);
  if (invalid && fault === 'cookie-validation-first' && url.pathname === '/api/cookie')
    return send(400, { message: 'weight must be from 1 to 10' });
  const key = credential(req, url, fault);
  const accepted = key === KEY || (fault === 'query-key-prefix' && !!key && KEY.startsWith(key));
  if (!accepted) {
    const basic = url.pathname === '/api/basic';
    const challenge = basic ? (fault === 'basic-challenges-bearer' ? 'Bearer' : 'Basic realm="gadgets"') : undefined;
    return send(401, { message: 'who are you?' }, challenge ? { 'www-authenticate': challenge } : {});
  }
  if (invalid) return send(400, { message: 'weight must be from 1 to 10' });
  send(200, [{ name: 'sprocket' }]);
}

async function check(fault?: Fault): Promise<RunSummary> {
  const server = createServer((req, res) => answer(req, res, fault));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await runContract({
      baseUrl: `http://127.0.0.1:${port}/api`,
      apiKey: KEY,
      specPath,
      seed: 3,
      checks: AUTH_CHECKS,
      excludeChecks: SCENARIO_CHECKS.map((item) => item.name).filter((name) => !AUTH_CHECKS.includes(name)),
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

function findings(summary: RunSummary, severity: 'error' | 'warning'): string[] {
  return summary.cases.flatMap((result) =>
    result.failures
      .filter((failure) => failure.severity === severity)
      .map((failure) => `${result.operationId} ${result.check}: ${failure.title}`),
  );
}

describe('authentication checks on Basic and API-key schemes', () => {
  it('pass a correct server; a 401 without a challenge is only a warning for an API key', async () => {
    const summary = await check();
    expect(findings(summary, 'error')).toEqual([]);
    expect(new Set(findings(summary, 'warning'))).toEqual(
      new Set(
        ['headerGadgets', 'queryGadgets', 'cookieGadgets'].map(
          (id) => `${id} auth-challenge-present: 401 without a WWW-Authenticate challenge`,
        ),
      ),
    );
    const spelt = summary.cases.find(
      (item) => item.operationId === 'headerGadgets' && item.check === 'auth-scheme-case-insensitive',
    );
    expect(spelt?.skipReason).toBe('API key credentials carry no scheme name');
  });

  it.each([
    ['basic-challenges-bearer', 'basicGadgets auth-challenge-present: 401 challenges for bearer, not for basic'],
    [
      'basic-scheme-exact',
      'basicGadgets auth-scheme-case-insensitive: refused the valid key sent with the scheme in lower case (basic)',
    ],
    [
      'query-key-prefix',
      'queryGadgets auth-enforced: accepted a request with the key without its last character (status 200)',
    ],
    [
      'cookie-validation-first',
      'cookieGadgets auth-before-validation: answered 400 to query parameter weight=abc (not a number) sent with no credentials',
    ],
  ] as const)('find the fault %s', async (fault, finding) => {
    const summary = await check(fault);
    expect(findings(summary, 'error')).toContain(finding);
    expect(summary.exitCode).toBe(1);
  });
});

describe('kennel serve on another document (an API key in a header)', () => {
  it('passes the authentication checks', async () => {
    const inventory = fileURLToPath(new URL('../fixtures/inventory.yaml', import.meta.url));
    const mock = await startMock({ specPath: inventory, apiKeys: ['inv-key-42'] });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: 'inv-key-42',
        specPath: inventory,
        seed: 4,
        checks: AUTH_CHECKS,
      });
      expect(findings(summary, 'error')).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

describe('kennel serve on a document behind HTTP Basic', () => {
  const document = fileURLToPath(new URL('../fixtures/inventory-basic.yaml', import.meta.url));
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

  it('passes the authentication checks', async () => {
    const mock = await startMock({ specPath: document, apiKeys: ['basic-key-42'] });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: 'basic-key-42',
        specPath: document,
        seed: 4,
        checks: AUTH_CHECKS,
      });
      expect(findings(summary, 'error')).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it.each([
    ['the key as the user name', basic('basic-key-42:'), 200],
    ['the key as the password', basic('anyone:basic-key-42'), 200],
    ['the key in another case', basic('BASIC-KEY-42:'), 401],
    ['an unknown key', basic('someone:else'), 401],
    ['the key as a Bearer token', 'Bearer basic-key-42', 401],
    ['nothing', '', 401],
  ])('%s → %i, every 401 challenging for Basic', async (_label, authorization, status) => {
    const mock = await startMock({ specPath: document, apiKeys: ['basic-key-42'] });
    try {
      const response = await fetch(`${mock.url}/items`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(status);
      if (status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="kennel"/);
    } finally {
      await mock.close();
    }
  });
});
