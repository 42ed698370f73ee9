import { describe, expect, it } from 'vitest';
import { codePointLength } from '../../src/core/text.js';

describe('codePointLength', () => {
  it('counts code points as JSON Schema lengths do: a surrogate pair once, a lone surrogate once', () => {
    const samples = [
      '',
      'Bench',
      'é',
      '🐶',
      'a🐶b🐈',
      '\ud83d',
      '\udc36',
      '\udc36\ud83d',
      'x\ud83d',
      '🐶\ud83d\ud83d🐶',
    ];
    for (const text of samples) expect(codePointLength(text), JSON.stringify(text)).toBe([...text].length);
  });
});
