import type { ActionDefinition } from './action.js';
import { servedText } from './observe-text.js';

export interface ServeAction {
  kind: 'serve';
  host: string;
  /** Path and query string. */
  path: string;
  scheme: 'http' | 'https';
  /** GET unless the step says otherwise. */
  method: string;
}

/** Methods a `serve` step may use. */
export const SERVE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** `serve: https://docs.example.com/guide` or `{url, method}`: what the platform answers for a request. */
export const serve: ActionDefinition<ServeAction> = {
  key: 'serve',
  doc: 'asks the platform for a URL: a page, a redirect, a 404 or a TLS error',
  schema: {
    oneOf: [
      { type: 'string', pattern: '^https?://', description: 'A URL such as https://docs.example.com/guide (GET)' },
      {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: { url: { type: 'string', pattern: '^https?://' }, method: { enum: [...SERVE_METHODS] } },
      },
    ],
  },
  parse(value) {
    const request = typeof value === 'string' ? { url: value } : (value as { url: string; method?: string });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return { problem: `${JSON.stringify(request.url)} is not a URL` };
    }
    return {
      kind: 'serve',
      host: url.hostname,
      path: `${url.pathname}${url.search}`,
      scheme: url.protocol === 'https:' ? 'https' : 'http',
      method: request.method ?? 'GET',
    };
  },
  perform({ simulator }, action) {
    const { host, path, scheme, method } = action;
    const served = simulator.serve({ host, path, scheme, method });
    return { outcome: { ok: true }, served, text: servedText(served, method) };
  },
  describe: (action) =>
    `serve ${action.method === 'GET' ? '' : `${action.method} `}${action.scheme}://${action.host}${action.path}`,
};
