import type { JsonSchema, OpenApiDocument } from '../openapi/openapi-types.js';
import type { Operation } from '../openapi/operations.js';
import { anchor, code, escapeHtml, inline, prose, table } from './html.js';
import { operationAnchor, operationLabel, operationSection } from './operation-section.js';
import type { ReferenceSpec } from './reference-spec.js';
import { fieldsTable, limitsOf, limitsText, propertiesOf, resolveSchema, typeText } from './schema-text.js';

export type { ReferenceSpec } from './reference-spec.js';

export interface ReferenceOptions {
  /** Where the stylesheet and the try-it script are served (`/__kennel/docs/`), ending with a slash. */
  assetsPath: string;
  /** A hint shown in the empty key field. */
  keyHint?: string;
  /** A key the field starts with: a public one only (the mock's development key), never a configured key. */
  keyValue?: string;
}

interface TagGroup {
  name: string;
  description: unknown;
  operations: Operation[];
}

/** Operations grouped by their first tag: the document's tags in order, then tags it only uses, then untagged ones. */
function tagGroups(document: OpenApiDocument, operations: readonly Operation[]): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  for (const tag of Array.isArray(document.tags) ? document.tags : [])
    if (typeof tag?.name === 'string')
      groups.set(tag.name, { name: tag.name, description: tag.description, operations: [] });
  const untagged: Operation[] = [];
  for (const operation of operations) {
    const name = operation.tags[0];
    if (name === undefined) {
      untagged.push(operation);
      continue;
    }
    if (!groups.has(name)) groups.set(name, { name, description: undefined, operations: [] });
    groups.get(name)!.operations.push(operation);
  }
  const list = [...groups.values()].filter((group) => group.operations.length > 0);
  if (untagged.length > 0) list.push({ name: 'Other operations', description: undefined, operations: untagged });
  return list;
}

function serverUrl(server: { url: string; variables?: Record<string, { default: string }> }): string {
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => server.variables?.[name]?.default ?? whole);
}

function serversSection(spec: ReferenceSpec): string {
  const servers = Array.isArray(spec.document.servers) ? spec.document.servers : [];
  const rows = servers.map((server) => [code(serverUrl(server)), inline(server.description)]);
  const base = spec.basePath ? code(spec.basePath) : 'the root path';
  return [
    '<section id="servers"><h2>Servers</h2>',
    table(['Base address', 'Description'], rows) || '<p>The document names no server.</p>',
    `<p>The try-it panels on this page send their requests to this site's own origin, under ${base}, `,
    'where a stateful mock of this API answers.</p></section>',
  ].join('');
}

function authSection(document: OpenApiDocument, options: ReferenceOptions): string {
  const schemes = Object.entries(document.components?.securitySchemes ?? {});
  const rows = schemes.map(([name, raw]) => {
    const scheme = resolveSchema(document, raw) as Record<string, unknown>;
    const how =
      scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer'
        ? code('Authorization: Bearer <API_KEY>')
        : scheme.type === 'apiKey'
          ? `${code(String(scheme.name))} in ${escapeHtml(String(scheme.in))}`
          : escapeHtml([scheme.type, scheme.scheme].filter(Boolean).join(' '));
    return [`<span id="${anchor('auth', name)}">${code(name)}</span>`, how, inline(scheme.description)];
  });
  const hint =
    (options.keyHint ? ` placeholder="${escapeHtml(options.keyHint)}"` : '') +
    (options.keyValue ? ` value="${escapeHtml(options.keyValue)}"` : '');
  return [
    '<section id="authentication"><h2>Authentication</h2>',
    table(['Scheme', 'How it is sent', 'Description'], rows) || '<p>The document declares no security scheme.</p>',
    '<p class="field key-field"><label for="api-key">Your API key <small>(used by the try-it panels, ',
    `kept in this page only)</small></label><input id="api-key" type="password" autocomplete="off" spellcheck="false"${hint}></p>`,
    '</section>',
  ].join('');
}

function schemasSection(document: OpenApiDocument): string {
  const schemas = Object.entries(document.components?.schemas ?? {});
  if (schemas.length === 0) return '';
  const parts = schemas.map(([name, schema]: [string, JsonSchema]) => {
    const raw = typeof schema === 'object' ? schema : {};
    const limits = limitsText(document, schema);
    const hasFields = propertiesOf(document, schema).properties.size > 0;
    return [
      `<article class="schema" id="${anchor('schema', name)}"><h3>${escapeHtml(name)}</h3>`,
      prose(raw.description),
      `<p>Type: ${typeText(document, { ...raw, description: undefined })}${limits ? `; ${limits}` : ''}</p>`,
      hasFields ? fieldsTable(document, schema) : '',
      '</article>',
    ].join('');
  });
  return `<section id="schemas"><h2>Schemas</h2>${parts.join('')}</section>`;
}

function errorsSection(operations: readonly Operation[]): string {
  const rows: string[][] = [];
  for (const operation of operations)
    for (const response of operation.responses)
      if (!/^[123]/.test(response.status))
        rows.push([
          code(response.status),
          `<a href="#${operationAnchor(operation)}">${code(operation.operationId ?? operationLabel(operation))}</a>`,
          inline(response.description),
        ]);
  const body = table(['Status', 'Operation', 'Condition'], rows) || '<p>The document declares no error response.</p>';
  return `<section id="errors"><h2>Errors</h2>${body}</section>`;
}

/** Constraints that are not limits (an enumeration, access markers): shown with their field only. */
const NOT_LIMITS = new Set(['one of', 'read-only', 'write-only', 'deprecated']);

function limitsSection(spec: ReferenceSpec): string {
  const rows: string[][] = [];
  for (const operation of spec.operations)
    for (const parameter of operation.parameters)
      for (const [label, value] of limitsOf(spec.document, parameter.schema?.schema))
        if (!NOT_LIMITS.has(label))
          rows.push([`${code(parameter.name)} ${escapeHtml(label)}`, code(operationLabel(operation)), code(value)]);
  for (const [name, schema] of Object.entries(spec.document.components?.schemas ?? {}))
    for (const [field, property] of propertiesOf(spec.document, schema).properties)
      for (const [label, value] of limitsOf(spec.document, property))
        if (!NOT_LIMITS.has(label)) rows.push([`${code(field)} ${escapeHtml(label)}`, code(name), code(value)]);
  const body = table(['Limit', 'Applies to', 'Value'], rows) || '<p>The document states no limits.</p>';
  return `<section id="limits"><h2>Limits</h2>${body}</section>`;
}

function navigation(groups: readonly TagGroup[], document: OpenApiDocument): string {
  const operations = groups
    .map((group) => {
      const items = group.operations
        .map(
          (operation) =>
            `<li><a href="#${operationAnchor(operation)}"><span class="method ${operation.method}">${operation.method.toUpperCase()}</span> ${escapeHtml(
              operation.path,
            )}</a>${operation.deprecated ? ' <small>(deprecated)</small>' : ''}</li>`,
        )
        .join('');
      return `<li><a href="#${anchor('tag', group.name)}">${escapeHtml(group.name)}</a><ul>${items}</ul></li>`;
    })
    .join('');
  const schemas = Object.keys(document.components?.schemas ?? {}).length
    ? '<li><a href="#schemas">Schemas</a></li>'
    : '';
  return [
    '<nav aria-label="Contents"><ul>',
    '<li><a href="#servers">Servers</a></li><li><a href="#authentication">Authentication</a></li>',
    operations,
    schemas,
    '<li><a href="#errors">Errors</a></li><li><a href="#limits">Limits</a></li>',
    '</ul></nav>',
  ].join('');
}

/**
 * The API reference of a document as one server-rendered page (it reads without JavaScript):
 * every operation with its parameters, limits, body and responses, the schemas, errors and limits,
 * deprecation with removal date and replacement, and try-it panels. Every text is escaped; the
 * page has no inline script or style, so it works under a strict Content-Security-Policy.
 * Rendered once: the returned function only adds the footer line (which site serves it).
 */
export function renderReference(spec: ReferenceSpec, options: ReferenceOptions): (footer: string) => string {
  const { document } = spec;
  const title = `${String(document.info?.title ?? 'API')} ${String(document.info?.version ?? '')}`.trim();
  const groups = tagGroups(document, spec.operations);
  const operations = groups
    .map(
      (group) =>
        `<section class="tag" id="${anchor('tag', group.name)}"><h2>${escapeHtml(group.name)}</h2>${prose(
          group.description,
        )}${group.operations.map((operation) => operationSection(spec, operation)).join('')}</section>`,
    )
    .join('');
  const assets = escapeHtml(options.assetsPath);
  const head = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}: API reference</title>`,
    `<link rel="stylesheet" href="${assets}reference.css">`,
    `<link rel="icon" href="${assets}favicon.svg" type="image/svg+xml">`,
    `<script type="module" src="${assets}try-it.js"></script>`,
    `</head><body data-base-path="${escapeHtml(spec.basePath)}">`,
    `<header><h1>${escapeHtml(String(document.info?.title ?? 'API'))}</h1>`,
    `<p class="version">Version ${code(String(document.info?.version ?? ''))} · OpenAPI ${code(String(document.openapi))}</p>`,
    `${prose(document.info?.description)}</header>`,
    navigation(groups, document),
    '<main>',
    serversSection(spec),
    authSection(document, options),
    operations,
    schemasSection(document),
    errorsSection(spec.operations),
    limitsSection(spec),
    '</main><footer><p>',
  ].join('');
  const tail = '</p></footer></body></html>\n';
  return (footer) => `${head}${escapeHtml(footer)}${tail}`;
}
