/**
 * What the document generator can put in a document, each switchable. A seed draws which of the
 * enabled features a document uses; the document records them, so a disagreement names the
 * features of the smallest document that shows it.
 */
export const FEATURES = {
  crud: 'collections with create, read, replace (PUT), update (PATCH) and delete',
  'read-only-collection': 'collections with only a list and a read (no create)',
  'sub-resource': 'a collection under an item of another (/authors/{authorId}/books)',
  'limit-parameter': 'an integer `limit` query parameter with minimum, maximum and default on lists',
  'filter-parameter': 'an enum query parameter on lists named after an item property',
  envelope: 'lists wrapped as {data: [...], links: {next}, meta: {total}}, only `data` required',
  'envelope-meta': 'lists wrapped as above with `meta` required too (a total the server must give)',
  'wrapped-item': 'single items wrapped as {data: {...}} or {"<singular>": {...}}',
  'all-of': 'item schemas as allOf of a shared base and their own properties',
  'one-of': 'a property that is oneOf two object shapes',
  'any-of': 'a property that is anyOf a string and an integer',
  discriminator: 'a oneOf of $refs with a discriminator (with and without mapping)',
  'read-only': 'readOnly properties (the id, a creation time), also required',
  'write-only': 'writeOnly properties (a secret), also required',
  nullable: 'nullable properties (3.0 `nullable`, 3.1 type arrays)',
  formats: 'uuid, date, date-time, email, uri, int32, int64 and byte formats',
  patterns: 'string patterns',
  enums: 'string enums',
  const: 'const values (3.0: a one-value enum)',
  bounds: 'minLength, maxLength, minimum, maximum, exclusive bounds, multipleOf, minItems, maxItems',
  'odd-paths': 'path templates with literal characters beside the parameter (/files/name:{b}, /exports/{name}.json)',
  'literal-sibling': 'a literal path beside a templated sibling (/items/mine and /items/{id})',
  'percent-encoded': 'a path with percent-encoded characters',
  'path-styles': 'path parameters in matrix, label and exploded simple styles (/grid/;cell=5, /palettes/.1.2)',
  'odd-keys': 'property names a JSON pointer escapes or a URL encodes (`@type`, `display name`, `size/unit`, `x~flag`)',
  'query-styles': 'query arrays and objects in form (explode true/false), pipeDelimited, spaceDelimited, deepObject',
  'header-parameters': 'header parameters (and a documented response header)',
  'cookie-parameters': 'cookie parameters',
  'vendor-json': 'responses in a +json media type',
  'problem-json': 'errors as application/problem+json',
  'form-body': 'an application/x-www-form-urlencoded request body',
  multipart: 'a multipart/form-data request body with a file',
  'text-media': 'a text/plain response',
  'xml-media': 'an application/xml response beside JSON',
  'api-key-header': 'security: an API key in a header',
  'api-key-query': 'security: an API key in the query',
  'api-key-cookie': 'security: an API key in a cookie',
  'http-bearer': 'security: HTTP Bearer',
  'http-basic': 'security: HTTP Basic',
  oauth2: 'security: OAuth 2 (one or more flows, scopes)',
  'open-id-connect': 'security: OpenID Connect',
  'mutual-tls': 'security: mutual TLS (OpenAPI 3.1 only)',
  'optional-security': 'security that may be omitted ({} beside the requirement) and public operations',
  'status-variants':
    'creates answering 200 or 201 without a body, 204 replaces, 200 deletes, errors as 4XX and default',
  'path-level-parameters': 'item path parameters declared on the path item, not on each operation',
  'nested-objects': 'an array of objects and a nested object with required fields in an item',
  'additional-properties': 'items that allow no undeclared property, and a free map property',
  defaults: 'schema defaults on optional properties',
  'security-alternatives': 'two security schemes, either one enough',
  links: 'response links from a create to the read of its item',
  examples: 'valid examples (schema, media type and named examples)',
  'base-path': 'a server URL with a base path (/api/v2)',
} as const;

export type Feature = keyof typeof FEATURES;

export const ALL_FEATURES = Object.keys(FEATURES) as Feature[];

export const SECURITY_FEATURES: readonly Feature[] = [
  'api-key-header',
  'api-key-query',
  'api-key-cookie',
  'http-bearer',
  'http-basic',
  'oauth2',
  'open-id-connect',
  'mutual-tls',
];

export type OasVersion = '3.0' | '3.1';

/** Parses `a,b,c` (or `all`, `all,-a,-b`, `none`) into features; unknown names are an error naming them. */
export function parseFeatures(text: string): Feature[] {
  const chosen = new Set<Feature>();
  for (const word of text.split(',').map((part) => part.trim())) {
    if (word === '' || word === 'none') continue;
    if (word === 'all') ALL_FEATURES.forEach((feature) => chosen.add(feature));
    else if (word.startsWith('-')) chosen.delete(known(word.slice(1)));
    else chosen.add(known(word));
  }
  return ALL_FEATURES.filter((feature) => chosen.has(feature));
}

function known(word: string): Feature {
  if (word in FEATURES) return word as Feature;
  throw new Error(`unknown generator feature "${word}" (known: ${ALL_FEATURES.join(', ')})`);
}
