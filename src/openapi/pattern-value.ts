import type { Random } from '../core/random.js';

/**
 * A string matching a schema `pattern`, for the common subset of regular expressions documents
 * use: literals, escapes (`\d`, `\w`, `\s`, `\.`), classes (`[A-Z0-9_-]`, `[^…]`), groups with
 * alternatives, anchors and the quantifiers `?`, `*`, `+`, `{n}`, `{n,m}`. Undefined when the
 * pattern uses anything else, or the result does not match (the caller then falls back).
 */
export function patternValue(pattern: string, random: Random): string | undefined {
  try {
    const parser = new PatternParser(pattern, random);
    const text = parser.alternatives();
    if (parser.index !== pattern.length) return undefined;
    return new RegExp(pattern, 'u').test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

const DIGITS = '0123456789';
const WORD = `abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ${DIGITS}_`;
const PRINTABLE = `${WORD}-.~ `;

class Unsupported extends Error {}

class PatternParser {
  index = 0;
  constructor(
    readonly pattern: string,
    readonly random: Random,
  ) {}

  /** `a|b|c`: the first alternative is generated, the others are parsed past. */
  alternatives(): string {
    const first = this.sequence();
    while (this.pattern[this.index] === '|') {
      this.index += 1;
      this.sequence();
    }
    return first;
  }

  sequence(): string {
    let out = '';
    while (this.index < this.pattern.length && !'|)'.includes(this.pattern[this.index]!)) {
      const char = this.pattern[this.index]!;
      if (char === '^' || char === '$') {
        this.index += 1;
        continue;
      }
      const atom = this.atom();
      const [min, max] = this.quantifier();
      const count = min === max ? min : this.random.int(min, max);
      for (let repeat = 0; repeat < count; repeat += 1) out += atom();
    }
    return out;
  }

  /** One atom, as a function giving a fresh value each repetition. */
  atom(): () => string {
    const char = this.pattern[this.index]!;
    this.index += 1;
    if (char === '(') {
      if (this.pattern.startsWith('?:', this.index)) this.index += 2;
      else if (this.pattern[this.index] === '?') throw new Unsupported('lookaround');
      const start = this.index;
      this.alternatives();
      if (this.pattern[this.index] !== ')') throw new Unsupported('unclosed group');
      const inner = this.pattern.slice(start, this.index);
      this.index += 1;
      return () => {
        const nested = new PatternParser(inner, this.random);
        return nested.alternatives();
      };
    }
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape();
    if (char === '.') return () => this.random.pick([...WORD]);
    if ('*+?{'.includes(char)) throw new Unsupported('quantifier without an atom');
    return () => char;
  }

  escape(): () => string {
    const char = this.pattern[this.index]!;
    this.index += 1;
    if (char === 'd') return () => this.random.pick([...DIGITS]);
    if (char === 'w') return () => this.random.pick([...WORD]);
    if (char === 's') return () => ' ';
    if (/[A-Za-z0-9]/.test(char)) throw new Unsupported(`\\${char}`);
    return () => char;
  }

  characterClass(): () => string {
    const negated = this.pattern[this.index] === '^';
    if (negated) this.index += 1;
    const members: string[] = [];
    while (this.pattern[this.index] !== ']') {
      if (this.index >= this.pattern.length) throw new Unsupported('unclosed class');
      const char = this.pattern[this.index]!;
      this.index += 1;
      if (char === '\\') {
        const escaped = this.pattern[this.index]!;
        this.index += 1;
        if (escaped === 'd') members.push(...DIGITS);
        else if (escaped === 'w') members.push(...WORD);
        else if (escaped === 's') members.push(' ');
        else if (/[A-Za-z0-9]/.test(escaped)) throw new Unsupported(`\\${escaped}`);
        else members.push(escaped);
        continue;
      }
      if (this.pattern[this.index] === '-' && this.pattern[this.index + 1] !== ']') {
        const end = this.pattern[this.index + 1]!;
        this.index += 2;
        for (let code = char.codePointAt(0)!; code <= end.codePointAt(0)!; code += 1)
          members.push(String.fromCodePoint(code));
        continue;
      }
      members.push(char);
    }
    this.index += 1;
    const pool = negated ? [...PRINTABLE].filter((char) => !members.includes(char)) : members;
    if (pool.length === 0) throw new Unsupported('empty class');
    return () => this.random.pick(pool);
  }

  /** `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}` (unbounded ones capped at a few repetitions). */
  quantifier(): [number, number] {
    const char = this.pattern[this.index];
    const bounds = (): [number, number] => {
      if (char === '?') return [0, 1];
      if (char === '*') return [0, 3];
      if (char === '+') return [1, 4];
      if (char === '{') {
        const match = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.index));
        if (!match) throw new Unsupported('brace');
        this.index += match[0].length - 1;
        const min = Number(match[1]);
        const max = match[2] === undefined ? min : match[3] === '' ? min + 3 : Number(match[3]);
        return [min, max];
      }
      return [1, 1];
    };
    const result = bounds();
    // Not `includes(char ?? '')`: every string includes '', which stepped past a pattern's last atom.
    if (char !== undefined && '?*+{'.includes(char)) {
      this.index += 1;
      if (this.pattern[this.index] === '?') this.index += 1; // lazy: same language
    }
    return result;
  }
}
