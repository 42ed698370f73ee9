// A small HTTP client of the reference Pet Store for its own tests: a server per test (or per
// suite), requests with the server's key unless told otherwise, bodies parsed when they are JSON.
import { expect } from 'vitest';
import { startReferencePetstore, type Fault, type Variant } from './reference-petstore.js';

export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface RequestOptions {
  /** The Authorization header; null sends none. Default: Bearer with the server's key. */
  auth?: string | null;
  /** A raw body; objects are JSON-encoded. */
  body?: string | object;
  contentType?: string;
}

export interface Api {
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<Exchange>;
  get(path: string, options?: RequestOptions): Promise<Exchange>;
  post(body: string | object, options?: RequestOptions): Promise<Exchange>;
  close(): Promise<void>;
}

export interface ServerOptions {
  fault?: Fault;
  variant?: Partial<Variant>;
  seedPets?: number;
}

export async function start(options: ServerOptions = {}): Promise<Api> {
  const server = await startReferencePetstore(options);
  const request = async (
    method: string,
    path: string,
    { auth = `Bearer ${server.apiKey}`, body, contentType }: RequestOptions = {},
  ): Promise<Exchange> => {
    const headers: Record<string, string> = {};
    if (auth !== null) headers.authorization = auth;
    if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers,
      body: typeof body === 'object' ? JSON.stringify(body) : body,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: parseOrUndefined(text) };
  };
  return {
    url: server.url,
    request,
    get: (path, options) => request('GET', path, options),
    post: (body, options) => request('POST', '/pets', { ...options, body }),
    close: () => server.close(),
  };
}

function parseOrUndefined(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function withServer<T>(options: ServerOptions, use: (api: Api) => Promise<T>): Promise<T> {
  const api = await start(options);
  try {
    return await use(api);
  } finally {
    await api.close();
  }
}

export function expectError(exchange: Exchange, status: number): void {
  expect(exchange.status).toBe(status);
  expect(exchange.headers.get('content-type')).toBe('application/json');
  expect(exchange.body).toEqual({ code: expect.any(String), message: expect.any(String), status });
}

export const rex = { name: 'Rex', categoryId: 1 };
