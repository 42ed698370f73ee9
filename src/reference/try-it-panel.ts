import { sampleOf } from '../openapi/generate.js';
import { valueAt } from '../openapi/json-pointer.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import type { Operation, OperationParameter } from '../openapi/operations.js';
import { anchor, escapeHtml } from './html.js';
import { resolveSchema } from './schema-text.js';
import type { ReferenceSpec } from './reference-spec.js';

/** Largest request body the panel is prefilled with; a bigger sample starts empty. */
const MAX_PREFILL = 16 * 1024;

/**
 * How the try-it script sends the reader's key, from the operation's first security requirement with a scheme:
 * `bearer`, `basic`, `header:<name>`, `query:<name>`, `cookie:<name>` (which a page cannot set), or `none`.
 */
export function authOf(operation: Operation): string {
  // The first requirement that names a scheme: an empty one only makes credentials optional.
  const requirement = operation.security.requirements.find((candidate) => Object.keys(candidate).length > 0);
  const name = requirement ? Object.keys(requirement)[0] : undefined;
  const scheme = name === undefined ? undefined : operation.security.schemes[name];
  if (!scheme) return 'none';
  if (scheme.type === 'apiKey' && scheme.name) return `${scheme.in ?? 'header'}:${scheme.name}`;
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') return 'basic';
  return 'bearer'; // http bearer, oauth2 and openIdConnect all carry a bearer token
}

function attribute(name: string, value: unknown): string {
  return value === undefined ? '' : ` ${name}="${escapeHtml(String(value))}"`;
}

function field(spec: ReferenceSpec, operation: Operation, parameter: OperationParameter, index: number): string {
  const id = `${anchor('try', `${operation.method} ${operation.path}`)}-${index}`;
  const target = resolveSchema(spec.document, parameter.schema?.schema);
  const schema = typeof target === 'object' ? target : {};
  const data = `${attribute('id', id)} data-in="${escapeHtml(parameter.in)}"${attribute('data-name', parameter.name)}${
    parameter.required ? ' required' : ''
  }`;
  const label = `<label for="${id}">${escapeHtml(parameter.name)} <small>(${escapeHtml(parameter.in)}${
    parameter.required ? ', required' : ''
  })</small></label>`;
  let control: string;
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.map((value) => `<option>${escapeHtml(String(value))}</option>`).join('');
    control = `<select${data}><option value="">${parameter.required ? 'choose' : '(not sent)'}</option>${options}</select>`;
  } else {
    const numeric = schema.type === 'integer' || schema.type === 'number';
    const placeholder = 'default' in schema ? `default ${JSON.stringify(schema.default)}` : undefined;
    control = `<input${data} type="${numeric ? 'number' : 'text'}"${
      numeric ? `${attribute('min', schema.minimum)}${attribute('max', schema.maximum)}` : ''
    }${attribute('placeholder', placeholder)} autocomplete="off">`;
  }
  return `<p class="field">${label}${control}</p>`;
}

/** The request body the panel starts with: the document's first example, else a sample of the schema. */
function bodyPrefill(spec: ReferenceSpec, operation: Operation): { mediaType: string; text: string } | undefined {
  const media = operation.requestBody?.content[0];
  if (!media) return undefined;
  const example = media.examples.values().next();
  const schema = media.schema ? (valueAt(spec.dereferenced, media.schema.pointer) as JsonSchema) : undefined;
  const value = example.done ? (schema === undefined ? undefined : sampleOf(schema)) : example.value;
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? '');
  return { mediaType: media.mediaType, text: text.length > MAX_PREFILL ? '' : text };
}

function disabledPanel(): string {
  return [
    '<form class="try-it" data-enabled="false">',
    '<h4>Try it</h4>',
    '<p class="try-it-disabled">Try it is disabled for this operation: the API documentation turns its ',
    'interactive panel off (<code>x-try-it-enabled: false</code>).</p>',
    '<p><button type="submit" disabled>Send request</button></p>',
    '</form>',
  ].join('');
}

/**
 * The try-it form of an operation. It holds no credentials: the script adds the key the reader
 * typed into the page's key field, and sends the request to this page's own origin.
 */
export function tryItPanel(spec: ReferenceSpec, operation: Operation): string {
  if (operation.extensions['x-try-it-enabled'] === false) return disabledPanel();
  const fields = operation.parameters
    .filter((parameter) => parameter.in !== 'cookie')
    .map((parameter, index) => field(spec, operation, parameter, index))
    .join('');
  const body = bodyPrefill(spec, operation);
  const bodyField = body
    ? `<p class="field"><label>Request body <small>(${escapeHtml(body.mediaType)})</small><textarea data-body${attribute(
        'data-content-type',
        body.mediaType,
      )} rows="6" spellcheck="false">${escapeHtml(body.text)}</textarea></label></p>`
    : '';
  return [
    // novalidate: the reader may send values the document forbids, to see the API's error.
    `<form class="try-it" novalidate data-enabled="true"${attribute('data-method', operation.method.toUpperCase())}`,
    `${attribute('data-path', operation.path)}${attribute('data-auth', authOf(operation))}>`,
    '<h4>Try it</h4>',
    fields,
    bodyField,
    '<p><button type="submit">Send request</button></p>',
    '<div class="try-it-result" hidden>',
    '<p class="try-it-status" role="status"></p>',
    '<details class="try-it-headers"><summary>Response headers</summary><pre></pre></details>',
    '<pre class="try-it-body"></pre>',
    '</div>',
    '</form>',
  ].join('');
}
