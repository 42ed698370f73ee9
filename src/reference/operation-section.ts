import { valueAt } from '../openapi/json-pointer.js';
import type { OpenApiDocument } from '../openapi/openapi-types.js';
import type { MediaType, Operation, OperationResponse } from '../openapi/operations.js';
import { anchor, calendarDate, code, escapeHtml, inline, prose, table } from './html.js';
import { fieldsTable, limitsText, propertiesOf, typeText } from './schema-text.js';
import type { ReferenceSpec } from './reference-spec.js';
import { tryItPanel } from './try-it-panel.js';

type Raw = Record<string, unknown>;

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a chain of local `$ref`s to the object it names. */
function follow(document: OpenApiDocument, value: unknown): Raw {
  let current = value;
  for (let hops = 0; isRaw(current) && typeof current.$ref === 'string' && hops < 8; hops += 1)
    current = current.$ref.startsWith('#') ? valueAt(document, current.$ref) : undefined;
  return isRaw(current) ? current : {};
}

/** The operation object as written (description, extensions), or {} when it cannot be read back. */
function rawOperation(document: OpenApiDocument, operation: Operation): Raw {
  return follow(document, valueAt(document, operation.pointer));
}

/** The parameter objects as written, keyed `in:name` (operation-level ones win over path-level ones). */
function rawParameters(document: OpenApiDocument, operation: Operation): Map<string, Raw> {
  const byKey = new Map<string, Raw>();
  const pathItem = follow(document, valueAt(document, operation.pointer.replace(/\/[^/]+$/, '')));
  for (const list of [pathItem.parameters, rawOperation(document, operation).parameters])
    for (const item of Array.isArray(list) ? list : []) {
      const parameter = follow(document, item);
      byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
    }
  return byKey;
}

/** `GET` `/pets/{petId}` as the page shows an operation's name. */
export function operationLabel(operation: Operation): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

/** The id of an operation's section. */
export function operationAnchor(operation: Operation): string {
  return anchor('op', operation.operationId ?? operationLabel(operation));
}

function deprecationNotice(document: OpenApiDocument, operation: Operation, all: readonly Operation[]): string {
  if (!operation.deprecated) return '';
  const sunset = calendarDate(operation.extensions['x-sunset']);
  const removal = sunset
    ? ` It is to be removed on <time datetime="${sunset.iso}">${escapeHtml(sunset.text)}</time> (${code(sunset.iso)}).`
    : ' No removal date is given.';
  const written = operation.extensions['x-replaced-by'];
  // Either `{operationId, description}` or an operationId alone.
  const replacedBy = typeof written === 'string' ? { operationId: written } : written;
  let replacement = '';
  if (isRaw(replacedBy)) {
    const target = all.find((candidate) => candidate.operationId === replacedBy.operationId);
    const link = target
      ? `<a href="#${operationAnchor(target)}">${code(operationLabel(target))}</a> (${code(target.operationId!)})`
      : typeof replacedBy.operationId === 'string'
        ? code(replacedBy.operationId)
        : '';
    const words = inline(replacedBy.description);
    if (link || words) replacement = ` Replacement: ${[link, words].filter(Boolean).join(': ')}.`;
  }
  return `<div class="deprecation" role="note"><strong>Deprecated.</strong>${removal}${replacement}</div>`;
}

function securityLine(operation: Operation): string {
  const { requirements, schemes } = operation.security;
  if (requirements.length === 0) return '<p class="auth">Authentication: none.</p>';
  const options = requirements.map((requirement) => {
    const names = Object.keys(requirement);
    if (names.length === 0) return 'none (anonymous)';
    return names
      .map((name) => {
        const scheme = schemes[name];
        const kind = scheme ? [scheme.type, scheme.scheme ?? scheme.in].filter(Boolean).join(' ') : 'undeclared';
        return `<a href="#${anchor('auth', name)}">${escapeHtml(name)}</a> (${escapeHtml(kind)})`;
      })
      .join(' and ');
  });
  return `<p class="auth">Authentication: ${options.join(' or ')}.</p>`;
}

function parametersTable(document: OpenApiDocument, operation: Operation): string {
  const raw = rawParameters(document, operation);
  const rows = operation.parameters.map((parameter) => {
    const written = raw.get(`${parameter.in}:${parameter.name}`) ?? {};
    const deprecated = written.deprecated === true ? ' <span class="badge deprecated">Deprecated</span>' : '';
    return [
      code(parameter.name) + deprecated,
      escapeHtml(parameter.in),
      typeText(document, parameter.schema?.schema),
      parameter.required ? '<strong>required</strong>' : 'optional',
      limitsText(document, parameter.schema?.schema),
      inline(written.description),
    ];
  });
  if (rows.length === 0) return '';
  return `<h4>Parameters</h4>${table(['Name', 'In', 'Type', 'Required', 'Limits', 'Description'], rows, 'parameters')}`;
}

function examplesHtml(media: MediaType): string {
  return [...media.examples]
    .map(
      ([name, value]) =>
        `<details class="example"><summary>Example ${code(name)}</summary><pre><code>${escapeHtml(
          JSON.stringify(value, null, 2) ?? String(value),
        )}</code></pre></details>`,
    )
    .join('');
}

function mediaHtml(document: OpenApiDocument, media: MediaType): string {
  const schema = media.schema?.schema;
  const inlineFields =
    schema !== undefined && typeof schema === 'object' && typeof schema.$ref !== 'string'
      ? propertiesOf(document, schema).properties.size > 0
        ? fieldsTable(document, schema)
        : ''
      : '';
  const type = schema === undefined ? 'no schema given' : typeText(document, schema);
  return `<div class="media"><p>${code(media.mediaType)}: ${type}</p>${inlineFields}${examplesHtml(media)}</div>`;
}

function requestBodyHtml(document: OpenApiDocument, operation: Operation): string {
  const body = operation.requestBody;
  if (!body) return '';
  const required = body.required ? '<strong>required</strong>' : 'optional';
  return `<h4>Request body</h4><p>${required}</p>${body.content.map((media) => mediaHtml(document, media)).join('')}`;
}

/** The class of a status (`s2xx`), for colour; `default` and odd values get `sdefault`. */
function statusClass(status: string): string {
  return /^[1-5]/.test(status) ? `s${status[0]}xx` : 'sdefault';
}

function responseHtml(document: OpenApiDocument, response: OperationResponse): string {
  const headers = table(
    ['Header', 'Type', 'Required'],
    [...response.headers].map(([name, header]) => [
      code(name),
      typeText(document, header.schema?.schema),
      header.required ? 'required' : 'optional',
    ]),
    'headers',
  );
  const content = response.content.length
    ? response.content.map((media) => mediaHtml(document, media)).join('')
    : '<p>No body.</p>';
  return `<div class="response"><h5><span class="status ${statusClass(response.status)}">${escapeHtml(
    response.status,
  )}</span> ${inline(response.description)}</h5>${headers}${content}</div>`;
}

/** One operation: name, badges, deprecation, description, parameters, body, every response, try-it panel. */
export function operationSection(spec: ReferenceSpec, operation: Operation): string {
  const { document, operations: all } = spec;
  const raw = rawOperation(document, operation);
  const stability = typeof raw['x-stability'] === 'string' ? raw['x-stability'] : undefined;
  const badges = [
    operation.deprecated ? ' <span class="badge deprecated">Deprecated</span>' : '',
    stability ? ` <span class="badge stability">${escapeHtml(stability)}</span>` : '',
  ].join('');
  const id = operation.operationId ? `<p class="operation-id">Operation ${code(operation.operationId)}</p>` : '';
  return [
    `<article class="operation" id="${operationAnchor(operation)}">`,
    `<h3><span class="method ${escapeHtml(operation.method)}">${operation.method.toUpperCase()}</span> `,
    `<code class="path">${escapeHtml(operation.path)}</code> `,
    `<span class="summary">${inline(operation.summary)}</span>${badges}</h3>`,
    id,
    deprecationNotice(document, operation, all),
    prose(raw.description),
    securityLine(operation),
    parametersTable(document, operation),
    requestBodyHtml(document, operation),
    `<h4>Responses</h4>${operation.responses.map((response) => responseHtml(document, response)).join('')}`,
    tryItPanel(spec, operation),
    '</article>',
  ].join('');
}
