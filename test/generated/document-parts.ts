import type { Draws } from './draws.js';
import type { Feature, OasVersion } from './features.js';

export type Schema = Record<string, unknown>;

/** A schema with a valid value of it (`sample(n)`: the n-th of several, so examples can differ). */
export interface Built {
  schema: Schema;
  sample: (n: number) => unknown;
}

/** What every builder of the generator shares: the version, the features in use and the document so far. */
export class DocumentParts {
  readonly version: OasVersion;
  readonly draws: Draws;
  readonly paths: Record<string, Record<string, unknown>> = {};
  readonly schemas: Record<string, Schema> = {};
  readonly securitySchemes: Record<string, Schema> = {};
  /** The document asks for credentials (its operations document a 401). */
  secured = false;
  /** The document-wide security requirements, if any. */
  security: Record<string, string[]>[] | undefined;
  readonly #used: ReadonlySet<Feature>;

  constructor(version: OasVersion, used: ReadonlySet<Feature>, draws: Draws) {
    this.version = version;
    this.#used = used;
    this.draws = draws;
  }

  uses(feature: Feature): boolean {
    return this.#used.has(feature);
  }

  /** Registers a component schema (once per name) and returns a reference to it. */
  component(name: string, schema: Schema): Schema {
    this.schemas[name] ??= schema;
    return { $ref: `#/components/schemas/${name}` };
  }

  operation(path: string, method: string, operation: Record<string, unknown>): void {
    const item = (this.paths[path] ??= {});
    if (item[method] !== undefined) throw new Error(`generator bug: ${method.toUpperCase()} ${path} twice`);
    item[method] = Object.fromEntries(Object.entries(operation).filter(([, value]) => value !== undefined));
  }

  /** Parameters declared once on the path item, for all its operations. */
  pathParameters(path: string, parameters: Schema[]): void {
    (this.paths[path] ??= {}).parameters = parameters;
  }

  /** `schema` that also admits null, in the version's own words. */
  nullable(schema: Schema): Schema {
    if (this.version === '3.0') {
      if (schema.$ref !== undefined) return { allOf: [schema], nullable: true };
      return { ...schema, nullable: true };
    }
    if (schema.$ref !== undefined || schema.type === undefined) return { anyOf: [schema, { type: 'null' }] };
    return { ...schema, type: [schema.type, 'null'] };
  }

  /** A single allowed value: `const` in 3.1, a one-value enum in 3.0. */
  constant(type: string, value: unknown): Schema {
    return this.version === '3.1' ? { type, const: value } : { type, enum: [value] };
  }

  /** A lower bound the value may not equal, in the version's own words. */
  exclusiveMinimum(bound: number): Schema {
    return this.version === '3.1' ? { exclusiveMinimum: bound } : { minimum: bound, exclusiveMinimum: true };
  }
}
