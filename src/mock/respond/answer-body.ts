import { Random } from '../../core/random.js';
import { sampleOf, validValue } from '../../openapi/generate.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import type { MediaType } from '../../openapi/operations.js';
import type { Validator } from '../../openapi/validators.js';
import type { Violation } from './violation.js';

/** A body chosen for a documented response: the value, and how it breaks its schema (flagged when sent). */
export interface ChosenBody {
  value: unknown;
  violations: Violation[];
}

/** Where a body comes from: the media type's schema (dereferenced) and its validator (response view). */
export interface BodySource {
  media: MediaType;
  schema: JsonSchema | undefined;
  /** Undefined when the media type has no schema: then anything is valid. */
  validate: Validator | undefined;
  /** The dereferenced document (discriminator mappings). */
  document: unknown;
}

/** Samples tried before giving up on a valid body: alternatives of choices, then seeded values. */
const ALTERNATIVES = 4;
const DRAWS = 8;

/** What makes `value` break the source's schema, as `Kennel-Violations` names it. */
export function issuesOf(source: BodySource, value: unknown): Violation[] {
  const issues = source.validate?.(value) ?? [];
  return issues.map((issue) => ({
    location: 'response',
    rule: 'response-schema-conformance',
    severity: 'warning',
    message: `${issue.pointer || '(root)'} ${issue.message}`,
    pointer: issue.pointer,
  }));
}

/**
 * The documented example to send: the one named (`Prefer: example=`), else the first that is
 * valid against the schema, else the first (the document's own words, flagged). Undefined when
 * the media type documents no example.
 */
export function exampleBody(source: BodySource, named?: string): ChosenBody | undefined {
  const { examples } = source.media;
  if (named !== undefined) {
    if (!examples.has(named)) return undefined;
    const value = examples.get(named);
    return { value, violations: issuesOf(source, value) };
  }
  let first: ChosenBody | undefined;
  for (const value of examples.values()) {
    const violations = issuesOf(source, value);
    if (violations.length === 0) return { value, violations };
    first ??= { value, violations };
  }
  return first;
}

/**
 * A value generated from the schema that is valid against it: the sample (examples inside the
 * schema used where they fit), then samples built from keywords alone and from other
 * alternatives of its choices, then seeded values. In the unlikely case that none is valid, the
 * first is sent with its violations.
 */
export function generatedBody(source: BodySource): ChosenBody {
  const { schema, document } = source;
  const candidates: (() => unknown)[] = [() => sampleOf(schema, { document })];
  for (let alternative = 0; alternative < ALTERNATIVES; alternative += 1)
    candidates.push(() => sampleOf(schema, { document, examples: false, alternative }));
  for (let seed = 1; seed <= DRAWS; seed += 1)
    candidates.push(() =>
      validValue(schema, { random: new Random(seed), tag: 'kennel', direction: 'response', examples: false, document }),
    );
  return firstValid(source, candidates);
}

/** A seeded value (`Prefer: dynamic=true`, `--dynamic`): another each time, valid, else the static body. */
export function dynamicBody(source: BodySource, random: Random): ChosenBody {
  const { schema, document } = source;
  const draw = () => validValue(schema, { random, tag: 'kennel', direction: 'response', document });
  return firstValid(source, [draw, draw, draw, () => generatedBody(source).value]);
}

function firstValid(source: BodySource, candidates: readonly (() => unknown)[]): ChosenBody {
  let first: ChosenBody | undefined;
  for (const candidate of candidates) {
    const value = candidate();
    const violations = issuesOf(source, value);
    if (violations.length === 0) return { value, violations };
    first ??= { value, violations };
  }
  return first!;
}
