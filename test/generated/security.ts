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
    scheme: (parts) => ({ type: 'oauth2', flows: oauthFlows(parts.draws.fork('oauth2 flows')) }),
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
  'mutual-tls': { name: 'clientCertificate', scheme: () => ({ type: 'mutualTLS' }), scopes: [] },
};

const SCOPES = { 'items:read': 'Read items', 'items:write': 'Change items' };
const AUTHORIZE = 'https://auth.example.com/authorize';
const TOKEN = 'https://auth.example.com/token';

/** One to four of OAuth 2's flows, client credentials always among them. */
function oauthFlows(draws: Draws): Record<string, unknown> {
  const flows: Record<string, unknown> = { clientCredentials: { tokenUrl: TOKEN, scopes: SCOPES } };
  if (draws.fork('authorization code').chance(0.5))
    flows.authorizationCode = { authorizationUrl: AUTHORIZE, tokenUrl: TOKEN, refreshUrl: TOKEN, scopes: SCOPES };
  if (draws.fork('implicit').chance(0.3)) flows.implicit = { authorizationUrl: AUTHORIZE, scopes: SCOPES };
  if (draws.fork('password').chance(0.3)) flows.password = { tokenUrl: TOKEN, scopes: SCOPES };
  return flows;
}

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
