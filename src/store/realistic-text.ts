import type { Faker } from '@faker-js/faker';
import { isFreeText, objectShape } from '../openapi/schema-shape.js';
import type { JsonSchema } from '../openapi/openapi-types.js';

type Writer = (faker: Faker) => string;

/** Property names (lower case, without `_`/`-`) and the kind of text people put there. */
const BY_NAME: readonly [RegExp, Writer][] = [
  [/^(first|given)name$/, (faker) => faker.person.firstName()],
  [/^(last|family|sur)name$/, (faker) => faker.person.lastName()],
  [/^username$|^login$|^handle$/, (faker) => faker.internet.username()],
  [/^(full|display)?name$|^author$|^owner$/, (faker) => faker.person.fullName()],
  [/email$/, (faker) => faker.internet.email()],
  [/phone/, (faker) => faker.phone.number({ style: 'international' })],
  [/^(title|subject|headline|summary)$/, (faker) => faker.lorem.sentence({ min: 2, max: 6 }).replace(/\.$/, '')],
  [/^(description|notes?|comment|body|text|content|message|bio)$/, (faker) => faker.lorem.sentence()],
  [/^(city|town)$/, (faker) => faker.location.city()],
  [/^country$/, (faker) => faker.location.country()],
  [/^(street|address(line)?1?)$/, (faker) => faker.location.streetAddress()],
  [/^(zip|postcode|postalcode)$/, (faker) => faker.location.zipCode()],
  [/^(company|organi[sz]ation|brand)$/, (faker) => faker.company.name()],
  [/^(colou?r)$/, (faker) => faker.color.human()],
  [/^(tag|category|label|kind|type)$/, (faker) => faker.word.noun()],
  [/^(url|website|homepage|link)$/, (faker) => faker.internet.url()],
];

function fits(text: string, schema: JsonSchema): boolean {
  const length = Array.from(text).length;
  const min = typeof schema === 'object' && typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema === 'object' && typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return length >= min && length <= max;
}

/**
 * The item with its free-text properties rewritten as a person would fill them (a title reads like
 * a title, an email like an email), chosen by property name; properties whose name says nothing,
 * or whose schema the new text would not fit, keep the generated value.
 */
export function withRealisticText(
  item: Record<string, unknown>,
  schema: JsonSchema | undefined,
  faker: Faker,
): Record<string, unknown> {
  const { properties } = objectShape(schema);
  const result = { ...item };
  for (const [name, value] of Object.entries(item)) {
    const property = properties[name];
    // A pattern says what the text must look like: the generated value already matches it.
    if (typeof value !== 'string' || !isFreeText(property) || property.pattern !== undefined) continue;
    const normalised = name.toLowerCase().replace(/[_-]/g, '');
    const writer = BY_NAME.find(([pattern]) => pattern.test(normalised))?.[1];
    const text = writer?.(faker);
    if (text !== undefined && fits(text, property)) result[name] = text;
  }
  return result;
}
