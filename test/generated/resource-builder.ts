import type { Built, DocumentParts, Schema } from './document-parts.js';
import type { Draws } from './draws.js';
import { errorResponses, jsonRequestBody, jsonResponse, locationHeader } from './responses.js';
import { itemSchemas, type ItemSchemas, type Names } from './resource-schema.js';
import { STATUSES } from './schema-properties.js';
import { createdResponse, deletedResponse, errorStatuses, writtenResponse } from './status-variants.js';

/** A collection the generator wrote, for the builders that refer to it. */
export interface BuiltResource {
  names: Names;
  path: string;
  itemPath: string | undefined;
  itemParameter: string;
  schemas: ItemSchemas;
}

export interface ResourcePlan {
  names: Names;
  /** `/widgets`, or `/authors/{authorId}/books` under a parent. */
  path: string;
  crud: boolean;
  /** The parent's path parameter, for a sub-resource. */
  parent?: { name: string; schema: Schema };
}

const capital = (word: string): string => word[0]!.toUpperCase() + word.slice(1);

/** Writes one collection: its item schema, list, and (for CRUD) create, read, replace, update and delete. */
export function addResource(parts: DocumentParts, plan: ResourcePlan, draws: Draws): BuiltResource {
  const schemas = itemSchemas(parts, plan.names, draws.fork('schemas'));
  const itemParameter = itemParameterOf(schemas, plan.names, draws.fork('item parameter'));
  const hasItem = plan.crud || draws.fork('read').chance(0.8);
  const resource: BuiltResource = {
    names: plan.names,
    path: plan.path,
    itemPath: hasItem ? `${plan.path}/{${itemParameter}}` : undefined,
    itemParameter,
    schemas,
  };
  const context = new ResourceContext(parts, plan, resource, draws);
  context.list();
  if (plan.crud) context.create();
  if (resource.itemPath) context.itemOperations();
  if (parts.uses('literal-sibling') && resource.itemPath) context.literalSibling();
  return resource;
}

function itemParameterOf(schemas: ItemSchemas, names: Names, draws: Draws): string {
  const { property } = schemas.key;
  if (property === 'slug') return 'slug';
  if (property === 'id') return draws.pick(['id', `${names.singular}Id`, `${names.singular}_id`]);
  return draws.pick([property, 'id']);
}

class ResourceContext {
  readonly #parts: DocumentParts;
  readonly #plan: ResourcePlan;
  readonly #resource: BuiltResource;
  readonly #draws: Draws;
  readonly #wrapper: string | undefined;

  constructor(parts: DocumentParts, plan: ResourcePlan, resource: BuiltResource, draws: Draws) {
    this.#parts = parts;
    this.#plan = plan;
    this.#resource = resource;
    this.#draws = draws;
    const wrapped = parts.uses('wrapped-item') && draws.fork('wrapped').chance(0.7);
    this.#wrapper = wrapped ? draws.fork('wrapper').pick(['data', plan.names.singular]) : undefined;
  }

  get #type(): string {
    return this.#plan.names.type;
  }

  get #plural(): string {
    return capital(this.#plan.names.plural);
  }

  /** 401 where the document asks for credentials (most operations document it), plus `statuses`. */
  #errors(statuses: string[]): Record<string, unknown> {
    const secured = this.#parts.secured && this.#draws.fork(`401 ${statuses.join()}`).chance(0.85);
    return errorResponses(
      this.#parts,
      errorStatuses(this.#parts, this.#draws, [...statuses, ...(secured ? ['401'] : [])]),
    );
  }

  #parentParameters(): Schema[] {
    const parent = this.#plan.parent;
    return parent ? [{ name: parent.name, in: 'path', required: true, schema: parent.schema }] : [];
  }

  #itemParameters(): Schema[] {
    const { readOnly: _readOnly, ...schema } = this.#resource.schemas.key.schema;
    return [...this.#parentParameters(), { name: this.#resource.itemParameter, in: 'path', required: true, schema }];
  }

  /** The item as a response shows it: bare, or inside its wrapper. */
  #itemBody(): Built {
    const { item } = this.#resource.schemas;
    const wrapper = this.#wrapper;
    if (!wrapper) return item;
    return {
      schema: { type: 'object', required: [wrapper], properties: { [wrapper]: item.schema } },
      sample: (n) => ({ [wrapper]: item.sample(n) }),
    };
  }

  list(): void {
    const { item } = this.#resource.schemas;
    const parameters = [...this.#parentParameters(), ...this.#listParameters()];
    const envelopes = [
      ...(this.#parts.uses('envelope') ? [false] : []),
      ...(this.#parts.uses('envelope-meta') ? [true] : []),
    ];
    const body =
      envelopes.length > 0 && this.#draws.fork('envelope').chance(0.7)
        ? this.#envelope(item, this.#draws.fork('envelope meta').pick(envelopes))
        : this.#array(item);
    this.#parts.operation(this.#plan.path, 'get', {
      operationId: `list${this.#plural}`,
      summary: `Lists the ${this.#plan.names.plural}`,
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: {
        '200': jsonResponse(this.#parts, `The ${this.#plan.names.plural}`, body, this.#totalHeader()),
        ...this.#errors(parameters.length > 0 ? ['400'] : []),
      },
    });
  }

  #totalHeader(): Record<string, unknown> {
    if (!this.#parts.uses('header-parameters')) return {};
    return {
      headers: { 'X-Total-Count': { description: 'Items in the collection', schema: { type: 'integer', minimum: 0 } } },
    };
  }

  #listParameters(): Schema[] {
    const parameters: Schema[] = [];
    if (this.#parts.uses('limit-parameter'))
      parameters.push({
        name: 'limit',
        in: 'query',
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      });
    if (this.#parts.uses('filter-parameter')) {
      const byStatus = this.#resource.schemas.properties.includes('status');
      parameters.push(
        byStatus
          ? { name: 'status', in: 'query', schema: { type: 'string', enum: STATUSES } }
          : { name: 'name', in: 'query', schema: { type: 'string' } },
      );
    }
    if (this.#parts.uses('header-parameters'))
      parameters.push({ name: 'X-Request-ID', in: 'header', schema: { type: 'string', maxLength: 64 } });
    if (this.#parts.uses('cookie-parameters'))
      parameters.push({ name: 'preferences', in: 'cookie', schema: { type: 'string', enum: ['compact', 'full'] } });
    return parameters;
  }

  #array(item: Built): Built {
    return { schema: { type: 'array', items: item.schema }, sample: (n) => [item.sample(n), item.sample(n + 1)] };
  }

  /** `{data, links: {next}, meta: {total}}`: only `data` required, or `meta` too. */
  #envelope(item: Built, metaRequired: boolean): Built {
    const next = this.#parts.uses('nullable') ? this.#parts.nullable({ type: 'string' }) : { type: 'string' };
    const required = metaRequired ? ['data', 'meta'] : ['data'];
    return {
      schema: {
        type: 'object',
        required,
        properties: {
          data: { type: 'array', items: item.schema },
          links: { type: 'object', properties: { next } },
          meta: { type: 'object', properties: { total: { type: 'integer', minimum: 0 } } },
        },
      },
      sample: (n) => ({
        data: [item.sample(n), item.sample(n + 1)],
        links: this.#parts.uses('nullable') ? { next: null } : {},
        meta: { total: 2 },
      }),
    };
  }

  create(): void {
    const { input, key } = this.#resource.schemas;
    const links = this.#parts.uses('links') && this.#resource.itemPath ? { links: this.#readLink() } : {};
    const location = this.#draws.fork('location').chance(0.5) ? { headers: locationHeader() } : {};
    this.#parts.operation(this.#plan.path, 'post', {
      operationId: `create${this.#type}`,
      summary: `Creates a ${this.#plan.names.singular}`,
      ...(this.#plan.parent ? { parameters: this.#parentParameters() } : {}),
      requestBody: jsonRequestBody(this.#parts, input),
      responses: {
        ...createdResponse(this.#parts, this.#draws, `The new ${this.#plan.names.singular}`, this.#itemBody(), {
          ...location,
          ...links,
        }),
        ...this.#errors(key.assignedBy === 'client' ? ['400', '409'] : ['400']),
      },
    });
  }

  #readLink(): Record<string, unknown> {
    const pointer = this.#wrapper
      ? `/${this.#wrapper}/${this.#resource.schemas.key.property}`
      : `/${this.#resource.schemas.key.property}`;
    const parent = this.#plan.parent ? { [this.#plan.parent.name]: `$request.path.${this.#plan.parent.name}` } : {};
    return {
      [`Get${this.#type}`]: {
        operationId: `get${this.#type}`,
        parameters: { ...parent, [this.#resource.itemParameter]: `$response.body#${pointer}` },
        description: `The ${this.#plan.names.singular} just created`,
      },
    };
  }

  itemOperations(): void {
    const path = this.#resource.itemPath!;
    // Declared once on the path item, or on each operation.
    const shared = this.#parts.uses('path-level-parameters');
    if (shared) this.#parts.pathParameters(path, this.#itemParameters());
    const parameters = shared ? undefined : this.#itemParameters();
    this.#parts.operation(path, 'get', {
      operationId: `get${this.#type}`,
      parameters,
      responses: { '200': this.#readResponse(), ...this.#errors(['404']) },
    });
    if (!this.#plan.crud) return;
    const { input, patch } = this.#resource.schemas;
    const draws = this.#draws.fork('item operations');
    if (draws.chance(0.7))
      this.#parts.operation(path, 'put', {
        operationId: `replace${this.#type}`,
        parameters,
        requestBody: jsonRequestBody(this.#parts, input),
        responses: {
          ...writtenResponse(this.#parts, this.#draws, 'The replaced item', this.#itemBody()),
          ...this.#errors(['400', '404']),
        },
      });
    if (draws.chance(0.6))
      this.#parts.operation(path, 'patch', {
        operationId: `update${this.#type}`,
        parameters,
        requestBody: jsonRequestBody(this.#parts, patch),
        responses: {
          ...writtenResponse(this.#parts, this.#draws, 'The updated item', this.#itemBody()),
          ...this.#errors(['400', '404']),
        },
      });
    if (draws.chance(0.8))
      this.#parts.operation(path, 'delete', {
        operationId: `delete${this.#type}`,
        parameters,
        responses: { ...deletedResponse(this.#parts, this.#draws, this.#itemBody()), ...this.#errors(['404']) },
      });
  }

  #readResponse(): Record<string, unknown> {
    const response = jsonResponse(this.#parts, `One ${this.#plan.names.singular}`, this.#itemBody());
    if (!this.#parts.uses('xml-media')) return response;
    const content = response.content as Record<string, unknown>;
    const schema = this.#resource.schemas.item.schema;
    return { ...response, content: { ...content, 'application/xml': { schema } } };
  }

  literalSibling(): void {
    const { item } = this.#resource.schemas;
    this.#parts.operation(`${this.#plan.path}/mine`, 'get', {
      operationId: `listMy${this.#plural}`,
      summary: `The ${this.#plan.names.plural} of the caller (a literal path beside ${this.#resource.itemPath})`,
      ...(this.#plan.parent ? { parameters: this.#parentParameters() } : {}),
      responses: { '200': jsonResponse(this.#parts, 'Mine', this.#array(item)), ...this.#errors([]) },
    });
  }
}
