import type { DocumentParts, Schema } from './document-parts.js';
import type { Draws } from './draws.js';
import { SECURITY_FEATURES, type Feature } from './features.js';

const SCHEMES: Record<string, { name: string; scheme: (parts: DocumentParts) => Schema; scopes: string[] }> = {
  'api-key-header': {
    name: 'apiKeyHeader',
    scheme: () => ({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    scopes: [],
  },
  'api-key-query': {
    name: 'apiKeyQuery',
    scheme: () => ({ type: 'apiKey', in: 'query', name: 'api_key' }),
    scopes: [],
  },
  'api-key-cookie': {
    name: 'apiKeyCookie',
    scheme: () => ({ type: 'apiKey', in: 'cookie', name: 'token' }),
    scopes: [],
  },
  'http-bearer': {
    name: 'bearerAuth',
    scheme: () => ({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    scopes: [],
  },
  'http-basic': { name: 'basicAuth', scheme: () => ({ type: 'http', scheme: 'basic' }), scopes: [] },
  oauth2: {
    name: 'oauth',
    scheme: () => ({
      type: 'oauth2',
      flows: {
        clientCredentials: {
          tokenUrl: 'https://auth.example.com/token',
          scopes: { 'items:read': 'Read items', 'items:write': 'Change items' },
        },
      },
    }),
    scopes: ['items:read'],
  },
  'open-id-connect': {
    name: 'openId',
    scheme: () => ({
      type: 'openIdConnect',
      openIdConnectUrl: 'https://auth.example.com/.well-known/openid-configuration',
    }),
    scopes: [],
  },
};

/**
 * Draws the document's security schemes: one of the enabled ones (two with
 * `security-alternatives`), in an order fixed by the seed (so switching one off falls back to the
 * next), or none.
 */
export function chooseSchemes(enabled: ReadonlySet<Feature>, alternatives: boolean, draws: Draws): Feature[] {
  if (draws.fork('unsecured').chance(0.15)) return [];
  const ranked = SECURITY_FEATURES.map((feature) => ({ feature, rank: draws.fork(`rank ${feature}`).next() }));
  const order = ranked.sort((a, b) => a.rank - b.rank).filter(({ feature }) => enabled.has(feature));
  const count = alternatives ? 2 : 1;
  return order.slice(0, count).map(({ feature }) => feature);
}

/** Writes the schemes in use as the document-wide requirement, each alternative enough; `optional-security` adds `{}`. */
export function addSecurity(parts: DocumentParts): void {
  const schemes = SECURITY_FEATURES.filter((candidate) => parts.uses(candidate)).map((feature) => SCHEMES[feature]!);
  if (schemes.length === 0) return;
  for (const scheme of schemes) parts.securitySchemes[scheme.name] = scheme.scheme(parts);
  parts.secured = true;
  parts.security = [
    ...schemes.map((scheme) => ({ [scheme.name]: scheme.scopes })),
    ...(parts.uses('optional-security') ? [{}] : []),
  ];
}
