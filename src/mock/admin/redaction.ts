import { Redactor, type Secret } from '../../core/redact.js';
import type { LoadedDocument } from '../../openapi/load.js';

/**
 * The redactor of a mock: every accepted key (shown as `[api key N]`, so tenants stay tellable
 * apart) and the admin token, plus the header and query parameter names of the document's apiKey
 * security schemes.
 */
export function mockRedactor(
  document: LoadedDocument,
  keys: readonly string[],
  adminToken: string | undefined,
): Redactor {
  const secrets: Secret[] = keys.map((value, index) => ({ value, label: `[api key ${index + 1}]` }));
  if (adminToken) secrets.push({ value: adminToken, label: '[admin token]' });
  const headers = new Set<string>();
  const queryParameters = new Set<string>();
  for (const operation of document.operations) {
    for (const scheme of Object.values(operation.security.schemes)) {
      if (scheme.type !== 'apiKey' || !scheme.name) continue;
      if (scheme.in === 'header') headers.add(scheme.name.toLowerCase());
      if (scheme.in === 'query') queryParameters.add(scheme.name);
    }
  }
  return new Redactor({ secrets, headers: [...headers], queryParameters: [...queryParameters] });
}
