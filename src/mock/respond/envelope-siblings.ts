import { sampleOf } from '../../openapi/generate.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { allowsNull, type PageField } from '../../openapi/pagination.js';
import type { ResourceList } from '../../openapi/resource-model.js';
import { objectShape, typesOf } from '../../openapi/schema-shape.js';
import { fieldValue, type AnsweredPage, type PageUrl } from './list-page.js';

/**
 * A paging field's value as the schema takes it. Nothing to say (no next page, no count): null
 * where null is allowed; else, when required, an empty string for text (the usual "no more" token)
 * or the schema's sample; else left out.
 */
function settled(value: unknown, schema: JsonSchema | undefined, required = false): unknown {
  if (value !== null && value !== undefined) return value;
  if (value === null && allowsNull(schema)) return null;
  if (!required) return undefined;
  return typesOf(schema).includes('string') ? '' : sampleOf(schema);
}

/** One envelope property made of paging fields (`links: {self, next, prev}`), required others as samples. */
function container(
  schema: JsonSchema,
  fields: readonly PageField[],
  value: (field: PageField) => unknown,
): Record<string, unknown> {
  const { properties, required } = objectShape(schema);
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const field = fields.find((candidate) => candidate.path[1] === name);
    if (!field) {
      if (required.includes(name)) out[name] = sampleOf(property);
      continue;
    }
    if (field.path.length === 3) {
      // A link object (`next: {href}`): present when there is a page to point at.
      const href = value(field);
      const kept = href === null ? settled(null, property) : { href };
      if (kept !== undefined) out[name] = kept;
      continue;
    }
    const kept = settled(value(field), property, required.includes(name));
    if (kept !== undefined) out[name] = kept;
  }
  return out;
}

/**
 * What stands beside a list's items in its envelope, for one answered page: links to the page
 * itself and its neighbours, cursors, counts, `has_more`; any other required property as the
 * schema's sample. A field with nothing to say (no next page) is null where the schema allows
 * null, else left out.
 */
export function envelopeSiblings(list: ResourceList, page: AnsweredPage, url: PageUrl): Record<string, unknown> {
  const value = (field: PageField) => fieldValue(field.meaning, list, page, url);
  const out: Record<string, unknown> = {};
  for (const sibling of list.siblings) {
    const fields = list.pagination.fields.filter((field) => field.path[0] === sibling.name);
    const own = fields.find((field) => field.path.length === 1);
    if (own) {
      const kept = settled(value(own), sibling.schema, sibling.required);
      if (kept !== undefined) out[sibling.name] = kept;
    } else if (fields.length > 0) out[sibling.name] = container(sibling.schema, fields, value);
    else if (sibling.required) out[sibling.name] = sampleOf(sibling.schema);
  }
  return out;
}
