// A Pet Store with exactly five faults: a proxy in front of `kennel serve` (correct, stateful) that
// breaks five things a real deployment could get wrong. Used to show that kennel check reports
// each fault once (unique findings), not once per array element or request.
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { serve, type TestServer } from './hostile-servers.js';

export const FIVE_FAULTS = {
  /** GET /pets lists every id as a string ("7"): one schema fault at every array index. */
  stringIds: 'response-schema-conformance',
  /** GET /pets with limit above 50 crashes with a 500. */
  bigLimit500: 'not-a-server-error',
  /** POST /pets needs no credentials (the proxy adds a valid key). */
  createUnprotected: 'auth-enforced',
  /** POST /pets answers 200 instead of the documented 201. */
  create200: 'status-code-conformance',
  /** A 404 of GET /pets/{petId} has no `status` in its Error body (its documented schema: judged once). */
  notFoundWithoutStatus: 'response-schema-conformance',
} as const;

export interface FiveFaultServer extends TestServer {
  apiKey: string;
}

export async function startFiveFaultServer(): Promise<FiveFaultServer> {
  const apiKey = 'unique-findings-key';
  const mock: RunningMock = await startMock({ apiKeys: [apiKey] });
  const proxy = await serve((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void relay());
    const relay = async (): Promise<void> => {
      const url = new URL(request.url ?? '/', mock.origin);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
      const isCreate = request.method === 'POST' && url.pathname === '/v1/pets';
      if (isCreate) headers.set('authorization', `Bearer ${apiKey}`);
      const isList = request.method === 'GET' && url.pathname === '/v1/pets';
      if (isList && Number(url.searchParams.get('limit')) > 50) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end('{"code":"internal","message":"limit too large for the cache","status":500}');
        return;
      }
      const upstream = await fetch(url, {
        method: request.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      let text = await upstream.text();
      let status = upstream.status;
      if (isList && status === 200) text = text.replace(/"id":(\d+)/g, '"id":"$1"');
      if (isCreate && status === 201) status = 200;
      if (request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(url.pathname) && status === 404)
        text = text.replace(/,"status":404/, '');
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') out[name] = value;
      });
      response.writeHead(status, out);
      response.end(text);
    };
  });
  return {
    ...proxy,
    apiKey,
    close: async () => {
      await proxy.close();
      await mock.close();
    },
  };
}
