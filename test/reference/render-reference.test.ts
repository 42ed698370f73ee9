import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { dereferenceDocument } from '../../src/openapi/dereference.js';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load.js';
import type { OpenApiDocument } from '../../src/openapi/openapi-types.js';
import { listOperations } from '../../src/openapi/operations.js';
import { basePathOf } from '../../src/openapi/servers.js';
import { calendarDate, prose } from '../../src/reference/html.js';
import { renderReference, type ReferenceSpec } from '../../src/reference/render-reference.js';
import { authOf } from '../../src/reference/try-it-panel.js';

const OPTIONS = { assetsPath: '/__kennel/docs/', keyHint: 'kennel-dev-key' };
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** The page of a document given as an object (a hand-made hostile one). */
function pageOf(document: OpenApiDocument): string {
  const spec: ReferenceSpec = {
    document,
    dereferenced: dereferenceDocument(document),
    operations: listOperations(document),
    basePath: basePathOf(document),
  };
  return renderReference(spec, OPTIONS)('footer');
}

/** The HTML of the element with `id`, up to the end of its article. */
function articleOf(page: string, id: string): string {
  const start = page.indexOf(`<article class="operation" id="${id}"`);
  expect(start, `no operation ${id} on the page`).toBeGreaterThanOrEqual(0);
  return page.slice(start, page.indexOf('</article>', start));
}

/** Visible text: tags dropped, entities decoded (enough for assertions on what a reader sees). */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

describe('the Pet Store reference', () => {
  let petstore: LoadedDocument;
  let page: string;
  beforeAll(async () => {
    petstore = await loadDocument(PETSTORE_SPEC);
    page = renderReference(petstore, OPTIONS)('Served for docs.example.com by project petstore-docs.');
  });

  it('shows every operation with its method, path and summary', () => {
    expect(petstore.operations).toHaveLength(4);
    for (const operation of petstore.operations) {
      const article = text(articleOf(page, `op-${operation.operationId}`));
      expect(article).toContain(`${operation.method.toUpperCase()} ${operation.path}`);
      expect(article).toContain(operation.summary);
    }
  });

  it('shows the limits of `limit` and the values of `status`', () => {
    const listPets = text(articleOf(page, 'op-listPets'));
    expect(listPets).toMatch(/limit\s*query\s*integer\s*optional\s*minimum 1, maximum 100, default 20/);
    expect(listPets).toContain('one of "available", "pending", "sold"');
    const limits = text(page.slice(page.indexOf('<section id="limits">')));
    expect(limits).toContain('limit minimumGET /pets1');
    expect(limits).toContain('limit maximumGET /pets100');
    expect(limits).toContain('limit defaultGET /pets20');
  });

  it('marks getPet deprecated with its removal date and its replacement', () => {
    const getPet = articleOf(page, 'op-getPet');
    expect(getPet).toContain('<span class="badge deprecated">Deprecated</span>');
    expect(text(getPet)).toContain(
      'Deprecated. It is to be removed on 5 December 2030 (2030-12-05). Replacement: GET /pets (listPets): GET /pets with a status filter.',
    );
    expect(getPet).toContain('<a href="#op-listPets">');
    expect(text(articleOf(page, 'op-listPets'))).not.toContain('Deprecated');
  });

  it('disables the store orders panel and says why; the others can be sent', () => {
    const orders = articleOf(page, 'op-listStoreOrders');
    expect(orders).toContain('<button type="submit" disabled>');
    expect(text(orders)).toContain('Try it is disabled for this operation');
    for (const id of ['op-listPets', 'op-createPet', 'op-getPet']) {
      expect(articleOf(page, id)).toContain('<button type="submit">Send request</button>');
      expect(articleOf(page, id)).toContain('data-auth="bearer"');
    }
  });

  it('shows every response status with its description, and every schema with its required fields', () => {
    for (const operation of petstore.operations)
      for (const response of operation.responses)
        expect(text(articleOf(page, `op-${operation.operationId}`))).toContain(
          `${response.status} ${response.description.replaceAll('`', '')}`,
        );
    const schemas = text(page.slice(page.indexOf('<section id="schemas">'), page.indexOf('<section id="errors">')));
    for (const name of ['PetStatus', 'NewPet', 'Pet', 'Pets', 'Error']) expect(schemas).toContain(name);
    expect(schemas).toMatch(/namestringrequired/);
    expect(schemas).toMatch(/statusPetStatusoptional/);
    expect(schemas).toMatch(/idinteger \(int64\)required/);
    const errors = text(page.slice(page.indexOf('<section id="errors">')));
    expect(errors).toContain('404getPetThe animal cannot be found.');
    expect(errors).toContain('400createPetRequired fields are missing or values are invalid.');
  });

  it('shows both servers, the scheme, and sends no credentials of its own', () => {
    expect(text(page)).toContain('https://petstore.example.com/v1');
    expect(text(page)).toContain('https://staging.petstore.example.com/v1');
    expect(text(page)).toContain('Authorization: Bearer <API_KEY>');
    expect(page).toContain('placeholder="kennel-dev-key"');
    expect(page).not.toMatch(/<input id="api-key"[^>]*value=/);
    expect(page).toContain('data-base-path="/v1"');
  });

  it('has no inline script or style, and its footer is the one given', () => {
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).toContain('<script type="module" src="/__kennel/docs/try-it.js"></script>');
    expect(page).not.toMatch(/ style=|<style| on[a-z]+=/i);
    expect(page).toContain('<footer><p>Served for docs.example.com by project petstore-docs.</p></footer>');
  });
});

/** The elements the renderer writes itself, and their attributes: anything else came from the document. */
const TAGS = new Set(
  'html head meta title link script body header h1 h2 h3 h4 h5 p code nav ul li a span small main section table thead tbody tr th td article div strong time details summary pre form label input select option textarea button footer'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set(
  'lang charset name content rel href type src data-base-path class id aria-label scope role datetime novalidate data-enabled data-method data-path data-auth data-in data-name data-body data-content-type for autocomplete spellcheck placeholder required min max value rows disabled hidden'.split(
    ' ',
  ),
);

/** Every start tag of a page: its name and its attribute names. */
function markupOf(page: string): { name: string; attributes: string[] }[] {
  return [...page.matchAll(/<([a-z][a-z0-9]*)((?:\s[^>]*)?)>/gi)].map((match) => ({
    name: match[1]!.toLowerCase(),
    attributes: [...match[2]!.replace(/="[^"]*"/g, '').matchAll(/\s([^\s=]+)/g)].map((attribute) => attribute[1]!),
  }));
}

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';

describe('a hostile document', () => {
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: HOSTILE, version: HOSTILE, description: `Intro \`${HOSTILE}\`\n\n${HOSTILE}` },
    servers: [{ url: `https://api.example.com/v2`, description: HOSTILE }],
    tags: [{ name: HOSTILE, description: HOSTILE }],
    components: {
      securitySchemes: { [HOSTILE]: { type: 'apiKey', name: HOSTILE, in: 'header' } as never },
      schemas: {
        [HOSTILE]: {
          type: 'object',
          description: HOSTILE,
          properties: { [HOSTILE]: { type: 'string', pattern: HOSTILE, enum: [HOSTILE] } },
        },
      },
    },
    paths: {
      [`/things/{id}`]: {
        get: {
          operationId: HOSTILE,
          summary: HOSTILE,
          description: HOSTILE,
          tags: [HOSTILE],
          deprecated: true,
          'x-sunset': HOSTILE,
          'x-replaced-by': { operationId: HOSTILE, description: HOSTILE },
          security: [{ [HOSTILE]: [] }],
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              description: HOSTILE,
              schema: { type: 'string', default: HOSTILE },
            },
            { name: HOSTILE, in: 'query', schema: { type: 'string', enum: [HOSTILE] } },
          ],
          requestBody: {
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${HOSTILE}` }, example: HOSTILE } },
          },
          responses: {
            '200': { description: HOSTILE, content: { 'application/json': { example: { [HOSTILE]: HOSTILE } } } },
            default: { description: HOSTILE },
          },
        },
      },
    },
  };

  it('escapes every text it shows: no markup of its own reaches the page', () => {
    const page = pageOf(document);
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain('<img');
    expect(markupOf(page).filter(({ name }) => !TAGS.has(name))).toEqual([]);
    expect(markupOf(page).flatMap(({ attributes }) => attributes.filter((name) => !ATTRIBUTES.has(name)))).toEqual([]);
    expect(page).not.toContain(HOSTILE);
    expect(text(page)).toContain(HOSTILE);
  });

  it('still renders the operation, with its auth for the try-it script', () => {
    const page = pageOf(document);
    expect(text(page)).toContain('GET /things/{id}');
    expect(page).toContain(
      `data-auth="header:${HOSTILE.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;')}"`,
    );
    expect(text(page)).toContain('No removal date is given.');
  });
});

describe('any document kennel serves', () => {
  it.each(['inventory.yaml', 'mock-documents/media-types.yaml'])('%s: every operation has a section', async (name) => {
    const spec = await loadDocument(fixture(name));
    const page = renderReference(spec, OPTIONS)('');
    expect(spec.operations.length).toBeGreaterThan(0);
    for (const operation of spec.operations)
      expect(text(page)).toContain(`${operation.method.toUpperCase()} ${operation.path}`);
    expect(page.match(/<article class="operation"/g)).toHaveLength(spec.operations.length);
  });

  it('sends the key the way each scheme says', async () => {
    const inventory = await loadDocument(fixture('inventory.yaml'));
    const secured = inventory.operations.find((operation) => operation.security.requirements.length > 0)!;
    expect(authOf(secured)).toBe('header:X-Api-Key');
    const schemes = {
      bearer: { type: 'http', scheme: 'bearer' },
      basic: { type: 'http', scheme: 'Basic' },
      query: { type: 'apiKey', in: 'query', name: 'api_key' },
    } as const;
    const withSecurity = (requirements: Record<string, string[]>[]) => ({
      ...secured,
      security: { requirements, schemes },
    });
    expect(authOf(withSecurity([{}, { basic: [] }]))).toBe('basic');
    expect(authOf(withSecurity([{ query: [] }]))).toBe('query:api_key');
    expect(authOf(withSecurity([{ bearer: [] }]))).toBe('bearer');
    expect(authOf(withSecurity([{}]))).toBe('none');
    expect(authOf(withSecurity([]))).toBe('none');
  });

  it('names a replacement given as an operationId alone', () => {
    const page = pageOf({
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/old': { get: { operationId: 'old', deprecated: true, 'x-replaced-by': 'new', responses: {} } },
        '/new': { get: { operationId: 'new', responses: {} } },
      },
    });
    expect(text(articleOf(page, 'op-old'))).toContain('Replacement: GET /new (new).');
  });
});

describe('text helpers', () => {
  it.each([
    ['2030-12-05', { iso: '2030-12-05', text: '5 December 2030' }],
    ['2026-01-31T00:00:00Z', { iso: '2026-01-31', text: '31 January 2026' }],
    [new Date('2030-12-05T00:00:00Z'), { iso: '2030-12-05', text: '5 December 2030' }],
    ['2030-13-05', undefined],
    ['soon', undefined],
    [20301205, undefined],
  ])('calendarDate(%s)', (value, expected) => {
    expect(calendarDate(value)).toEqual(expected);
  });

  it('prose: paragraphs and code spans, nothing else interpreted', () => {
    expect(prose('One `a<b`\nline.\n\nTwo [x](javascript:1) **b**')).toBe(
      '<p>One <code>a&lt;b</code> line.</p><p>Two [x](javascript:1) **b**</p>',
    );
    expect(prose(undefined)).toBe('');
  });
});
