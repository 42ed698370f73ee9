import { expect } from 'vitest';

/** One answer of the domain world's control API: status, text, and the body parsed when it is JSON. */
export interface WorldAnswer {
  status: number;
  text: string;
  body: any;
}

/** A request to the control API under `origin`/__kennel/world, with a JSON body when one is given. */
export async function callWorld(origin: string, method: string, path: string, body?: unknown): Promise<WorldAnswer> {
  const response = await fetch(`${origin}/__kennel/world${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
  return { status: response.status, text, body: json ? JSON.parse(text) : undefined };
}

/**
 * Attaches `names` to the platform with the CNAME the platform shows, verifies them and waits until
 * their certificates are issued: the world a site test starts from.
 */
export async function verifiedSiteDomains(origin: string, names: readonly string[]): Promise<void> {
  const call = (method: string, path: string, body?: unknown) => callWorld(origin, method, path, body);
  for (const name of names) {
    expect((await call('POST', '/domains', { name })).status).toBe(201);
    const cname = { name, type: 'CNAME', value: 'petstore-docs.kennel-pages.dev', ttl: 3600 };
    expect((await call('POST', '/records', cname)).status).toBe(201);
  }
  await call('POST', '/clock/advance', { by: '1m' });
  for (const name of names) expect((await call('POST', `/domains/${name}/verify`)).status).toBe(200);
  await call('POST', '/clock/advance', { by: '10m' });
}
