import { describe, expect, it } from 'vitest';
import { toXml } from '../../src/mock/respond/xml-body.js';

describe('toXml', () => {
  it('names elements by xml.name, items by items.xml.name, and escapes text', () => {
    const schema = { type: 'array', xml: { name: 'reports' }, items: { type: 'object', xml: { name: 'report' } } };
    expect(toXml([{ id: 1, title: 'a<b&c' }], schema)).toBe(
      '<reports><report><id>1</id><title>a&lt;b&amp;c</title></report></reports>',
    );
  });

  it('property names a client chose cannot break the document', () => {
    const xml = toXml({ 'x><evil': 1, '#text': 2, '9lives': 3, 'a b': 4 }, { type: 'object' }, 'thing');
    expect(xml).toBe('<thing><x__evil>1</x__evil><_text>2</_text><_9lives>3</_9lives><a_b>4</a_b></thing>');
  });

  it('an XML example (a string) is sent as written', () => {
    expect(toXml('<a>1</a>', undefined)).toBe('<a>1</a>');
  });
});
