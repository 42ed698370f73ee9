import * as randexp from 'randexp';
import type { Random } from '../core/random.js';
import { codePointLength } from '../core/text.js';

/** Length bounds a generated string must also meet (`minLength`, `maxLength`). */
export interface LengthBounds {
  minLength?: number;
  maxLength?: number;
}

/** Draws per pattern: repetition caps widen when short strings do not meet the bounds. */
const ATTEMPTS = 12;

/** The class as its types describe it (`export default class` of a CommonJS module). */
type RandExpClass = typeof randexp.default.default;
// Node hands a CommonJS module's `module.exports` (here the class itself) over as `default`;
// TypeScript reads the declared `export default` one level deeper.
const RandExp = randexp.default as unknown as RandExpClass;
type RandExp = InstanceType<RandExpClass>;

const parsed = new Map<string, RandExp | undefined>();

function generatorOf(pattern: string): RandExp | undefined {
  if (!parsed.has(pattern)) {
    let generator: RandExp | undefined;
    try {
      generator = new RandExp(pattern);
    } catch {
      generator = undefined;
    }
    parsed.set(pattern, generator);
  }
  return parsed.get(pattern);
}

/** The pattern as JavaScript reads it: with the `u` flag where it parses so (ajv's way), else without. */
function regExpOf(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next flags
    }
  }
  return undefined;
}

/**
 * A string matching a schema `pattern` within `bounds`, drawn by randexp (a regular-expression
 * driven generator: classes, groups, alternatives, quantifiers, back-references) from `random`,
 * so the same seed gives the same string. Every draw is checked against the pattern itself;
 * undefined when no draw matches (lookarounds randexp skips, Unicode property classes it cannot
 * read), and the caller falls back.
 */
export function patternValue(pattern: string, random: Random, bounds: LengthBounds = {}): string | undefined {
  const regExp = regExpOf(pattern);
  const generator = generatorOf(pattern);
  if (!regExp || !generator) return undefined;
  const min = bounds.minLength ?? 0;
  const max = bounds.maxLength ?? Infinity;
  generator.randInt = (from: number, to: number) => random.int(from, to);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    // Short values first (a `+` repeats a few times), longer ones when the bounds ask for them.
    generator.max =
      attempt < 4 ? Math.max(3, Math.min(min, 8)) : attempt < 8 ? Math.max(8, min) : Math.max(32, 2 * min);
    let text: string;
    try {
      text = generator.gen();
    } catch {
      return undefined;
    }
    const length = codePointLength(text);
    if (length >= min && length <= max && regExp.test(text)) return text;
  }
  return undefined;
}
