import type { Context } from 'koa';
import { isCredentialHeader, Redactor, type Secret } from '../core/redact.js';
import type { LoadedDocument } from '../openapi/load.js';
import { queryOf } from '../mock/request/query.js';

/** Where the document's API keys travel: header, query parameter and cookie names (lower case). */
export interface CredentialNames {
  headers: ReadonlySet<string>;
  query: ReadonlySet<string>;
  cookies: ReadonlySet<string>;
}

/** The names the document's apiKey security schemes use. */
export function credentialNames(document: LoadedDocument): CredentialNames {
  const names = { headers: new Set<string>(), query: new Set<string>(), cookies: new Set<string>() };
  for (const operation of document.operations) {
    for (const scheme of Object.values(operation.security.schemes)) {
      if (scheme.type !== 'apiKey' || !scheme.name) continue;
      const target = scheme.in === 'query' ? names.query : scheme.in === 'cookie' ? names.cookies : names.headers;
      target.add(scheme.name.toLowerCase());
    }
  }
  return names;
}

/** `Bearer abc` → `abc`; `a=1; b=2` → `1`, `2`: the parts of a header value that are the secret. */
function secretParts(name: string, value: string): string[] {
  if (name === 'cookie' || name === 'set-cookie')
    return value.split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim());
  const parts = value.trim().split(/\s+/);
  return [value, parts.at(-1) ?? value];
}

/**
 * The credentials one request carries (credential-named headers, cookies, the document's API key
 * names, credential-named query parameters) as a redactor: hidden wherever the exchange is shown,
 * even where the upstream echoes them in its answer.
 */
export function exchangeCredentials(ctx: Context, names: CredentialNames): Redactor {
  const secrets: Secret[] = [];
  const add = (value: string): void => {
    if (value) secrets.push({ value, label: '[credential]' });
  };
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (value === undefined || !(isCredentialHeader(name) || names.headers.has(name))) continue;
    for (const item of [value].flat()) secretParts(name, item).forEach(add);
  }
  for (const [name, value] of Object.entries(queryOf(ctx)))
    if (isCredentialHeader(name) || names.query.has(name.toLowerCase())) [value ?? []].flat().forEach(add);
  return new Redactor({ secrets });
}
