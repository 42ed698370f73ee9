import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { escapeToken } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-types.js';
import { closestBranches } from './closest-branch.js';
import { referencesFirst } from './compile-order.js';
import { schemaDialectOf, schemasOf } from './schema-dialect.js';
import { schemaViewOf, type SchemaView } from './schema-views.js';

/** Where ajv finds the bundled document (and its views); every compiled validator is a `$ref` into one. */
const DOCUMENT_ID = 'kennel:openapi';

/** One problem found in a value, located by a JSON pointer into that value. */
export interface ValidationIssue {
  pointer: string;
  message: string;
}

export type Validator = (value: unknown) => ValidationIssue[];

export type { SchemaView };

const INT64_BOUND = 2 ** 63;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** One compiled copy of the document: the schemas as written, or a request or response view. */
interface CompiledView {
  id: string;
  document: OpenApiDocument;
  /** Pointers of the schemas with `anyOf`/`oneOf`, by object (made on the first composition failure). */
  compositions?: WeakMap<object, string>;
  raw: Map<string, ValidateFunction>;
}

/**
 * Compiles JSON Schemas of one OpenAPI document and keeps the validators. OpenAPI 3.1 uses JSON
 * Schema 2020-12 (Ajv2020); 3.0 uses ajv's default draft on a translation of the OpenAPI-only
 * keywords (`schema-dialect.ts`). A schema is compiled on its first use, not at start-up: a
 * 600-operation document would otherwise spend seconds compiling schemas no request touches.
 * The request and response views (`schema-views.ts`) are compiled the same way, from copies made
 * on first use: the mock and the checker read readOnly and writeOnly through this one class.
 */
export class SchemaValidators {
  readonly #ajv: Ajv;
  readonly #dialect: OpenApiDocument;
  readonly #views = new Map<SchemaView, CompiledView>();
  readonly #cache = new Map<string, Validator>();

  constructor(document: OpenApiDocument) {
    const options = {
      allErrors: true,
      strict: false,
      validateSchema: false,
      logger: false,
      // Errors carry their schema objects: a failed anyOf/oneOf is then told by its closest branch.
      verbose: true,
      code: { regExp: lenientRegExp },
    } as const;
    this.#ajv = document.openapi.startsWith('3.1') ? new Ajv2020(options) : new Ajv(options);
    // Ajv refuses draft-04's `id` outright; OpenAPI has no such keyword, and an `id` beside a
    // schema's keywords is a property written one level too high: ignored like any unknown key.
    this.#ajv.removeKeyword('id');
    const addFormats = formatsPlugin as unknown as (ajv: Ajv) => Ajv;
    addFormats(this.#ajv);
    // JSON numbers cannot carry int64 exactly; `exactNumbers` (core/json) maps out-of-range
    // literals beyond ±2^63 so that this float comparison decides correctly.
    this.#ajv.addFormat('int64', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= INT64_BOUND,
    });
    this.#ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX,
    });
    this.#dialect = schemaDialectOf(document).document;
    this.#ajv.addSchema(this.#dialect, DOCUMENT_ID);
    this.#views.set('plain', { id: DOCUMENT_ID, document: this.#dialect, raw: new Map() });
  }

  /**
   * The validator for the schema at `pointer` (`#/components/schemas/Pet`) as `view` reads it
   * (default: as written); ajv compiles it on its first call.
   */
  at(pointer: string, view: SchemaView = 'plain'): Validator {
    const key = `${view}\u0000${pointer}`;
    let validator = this.#cache.get(key);
    if (!validator) {
      validator = (value) => {
        const compiled = this.#view(view);
        const errors = this.#errors(compiled, pointer, value);
        if (errors.length === 0) return [];
        const pointerOf = (schema: unknown) => this.#compositions(compiled).get(schema as object);
        const branch = (at: string, part: unknown) => this.#errors(compiled, at, part);
        return toIssues(closestBranches(errors, value, pointerOf, branch));
      };
      this.#cache.set(key, validator);
    }
    return validator;
  }

  #view(view: SchemaView): CompiledView {
    let compiled = this.#views.get(view);
    if (!compiled) {
      const document = view === 'plain' ? undefined : schemaViewOf(this.#dialect, view);
      if (document) {
        compiled = { id: `${DOCUMENT_ID}-${view}`, document, raw: new Map() };
        this.#ajv.addSchema(document, compiled.id);
      } else compiled = this.#views.get('plain')!; // nothing to change: the view is the document
      this.#views.set(view, compiled);
    }
    return compiled;
  }

  /** Raw ajv errors of `value` against the schema at `pointer` in a compiled view. */
  #errors(view: CompiledView, pointer: string, value: unknown): ErrorObject[] {
    let validate = view.raw.get(pointer);
    if (!validate) {
      for (const reference of referencesFirst(view.document, pointer)) this.#compileQuietly(view, reference);
      validate = this.#ajv.compile({ $ref: `${view.id}${pointer}` });
      view.raw.set(pointer, validate);
    }
    return validate(value) ? [] : [...(validate.errors ?? [])];
  }

  /** Compiles a schema a later compile refers to; one that does not compile is left to that compile to report. */
  #compileQuietly(view: CompiledView, pointer: string): void {
    if (view.raw.has(pointer)) return;
    try {
      view.raw.set(pointer, this.#ajv.compile({ $ref: `${view.id}${pointer}` }));
    } catch {
      // not a schema ajv can compile on its own (a `$ref` inside an example): nothing to prepare
    }
  }

  #compositions(view: CompiledView): WeakMap<object, string> {
    if (!view.compositions) {
      view.compositions = new WeakMap();
      for (const { schema, pointer } of schemasOf(view.document))
        if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) view.compositions.set(schema, pointer);
    }
    return view.compositions;
  }
}

/**
 * Patterns are ECMA-262 regular expressions; many documents write ones that only parse without
 * the `u` flag ajv adds (`[\w-.]`): those are read without it. schema-dialect drops unreadable ones.
 */
function lenientRegExp(pattern: string, flags: string): RegExp {
  try {
    return new RegExp(pattern, flags);
  } catch {
    return new RegExp(pattern, flags.replace('u', ''));
  }
}
lenientRegExp.code = 'lenientRegExp';

/** Issues kept per value: ajv reports every extra field of a 50,000-field body, and describing them all costs. */
export const MAX_ISSUES = 1000;

function toIssues(errors: readonly ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (issues.length >= MAX_ISSUES) break;
    const issue = describe(error);
    if (!issue) continue;
    const key = `${issue.pointer}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/** Turns one ajv error into a pointer + message a person can act on; noise from combinators is dropped. */
function describe(error: ErrorObject): ValidationIssue | undefined {
  const { instancePath, keyword, params } = error;
  switch (keyword) {
    case 'required':
      return { pointer: `${instancePath}/${escapeToken(String(params.missingProperty))}`, message: 'is required' };
    case 'additionalProperties':
      return {
        pointer: `${instancePath}/${escapeToken(String(params.additionalProperty))}`,
        message: 'is not allowed',
      };
    case 'unevaluatedProperties':
      return {
        pointer: `${instancePath}/${escapeToken(String(params.unevaluatedProperty))}`,
        message: 'is not allowed',
      };
    case 'enum':
      return {
        pointer: instancePath,
        message: `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'format':
      return { pointer: instancePath, message: formatMessage(String(params.format)) };
    case 'allOf':
    case 'if':
      return undefined;
    default:
      return { pointer: instancePath, message: error.message ?? `fails ${keyword}` };
  }
}

function formatMessage(format: string): string {
  if (format === 'int64') return 'must be an integer within int64 (-9223372036854775808 to 9223372036854775807)';
  if (format === 'int32') return 'must be an integer within int32 (-2147483648 to 2147483647)';
  return `must match format "${format}"`;
}

/** `/name is required; /categoryId must be integer`: issues as one sentence, the root shown as `(root)`. */
export function describeIssues(issues: readonly ValidationIssue[], most = MAX_DESCRIBED_ISSUES): string {
  const described = issues
    .slice(0, most)
    .map((issue) => `${issue.pointer === '' ? '(root)' : issue.pointer} ${issue.message}`)
    .join('; ');
  if (issues.length <= most) return described;
  return `${described}; and ${issues.length >= MAX_ISSUES ? 'at least ' : ''}${issues.length - most} more`;
}

/** Issues named in one message: enough to fix a request, few enough that a hostile one cannot bloat the answer. */
export const MAX_DESCRIBED_ISSUES = 20;
