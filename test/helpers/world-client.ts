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
