import type { ActionDefinition } from './action.js';
import { servedText } from './observe-text.js';

export interface ServeAction {
  kind: 'serve';
  host: string;
  /** Path and query string. */
  path: string;
  scheme: 'http' | 'https';
}

/** `serve: https://docs.example.com/guide`: what the platform answers for a URL. */
export const serve: ActionDefinition<ServeAction> = {
  key: 'serve',
  doc: 'asks the platform for a URL: a page, a redirect, a 404 or a TLS error',
  schema: { type: 'string', pattern: '^https?://', description: 'A URL such as https://docs.example.com/guide' },
  parse(value) {
    let url: URL;
    try {
      url = new URL(value as string);
    } catch {
      return { problem: `${JSON.stringify(value)} is not a URL` };
    }
    return {
      kind: 'serve',
      host: url.hostname,
      path: `${url.pathname}${url.search}`,
      scheme: url.protocol === 'https:' ? 'https' : 'http',
    };
  },
  perform({ simulator }, action) {
    const served = simulator.serve({ host: action.host, path: action.path, scheme: action.scheme });
    return { outcome: { ok: true }, served, text: servedText(served) };
  },
  describe: (action) => `serve ${action.scheme}://${action.host}${action.path}`,
};
