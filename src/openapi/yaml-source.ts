import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { tokensOf } from './json-pointer.js';

/** YAML (or JSON) text parsed with its positions, so errors can name a line. */
export interface YamlSource {
  value: unknown;
  /** The line of the node at a JSON pointer (or of its closest existing ancestor). */
  lineOf(pointer: string): number | undefined;
}

export type YamlParse = { ok: true; source: YamlSource } | { ok: false; line: number; column: number; message: string };

/** Parses YAML text strictly (duplicate keys are errors) and keeps line information. */
export function parseYamlSource(text: string): YamlParse {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const first = document.errors[0];
  if (first) {
    const { line, col } = lines.linePos(first.pos[0]);
    return { ok: false, line, column: col, message: first.message.split('\n')[0]! };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // toJS throws outside document.errors: aliases that expand too far (a "billion laughs" bomb).
    const { line, col } = lines.linePos(firstAliasAt(document));
    return { ok: false, line, column: col, message: (error as Error).message };
  }
  return { ok: true, source: { value, lineOf: (pointer) => lineOf(document, lines, pointer) } };
}

/** Offset of the document's first alias (`*name`), or 0. */
function firstAliasAt(document: Document): number {
  let at = 0;
  visit(document, {
    Alias: (_key, node) => {
      at = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return at;
}

/** Walks the YAML nodes token by token; each step keeps the line of the key (or item) it went through. */
function lineOf(document: Document, lines: LineCounter, pointer: string): number | undefined {
  let tokens: string[];
  try {
    tokens = tokensOf(pointer);
  } catch {
    return undefined;
  }
  const lineAt = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? lines.linePos(range[0]).line : undefined;
  };
  let node: unknown = document.contents;
  let line = lineAt(node);
  for (const token of tokens) {
    if (isAlias(node)) node = node.resolve(document);
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === token);
      if (!pair) break;
      line = lineAt(pair.key) ?? line;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(token) && Number(token) < node.items.length) {
      node = node.items[Number(token)];
      line = lineAt(node) ?? line;
    } else break;
  }
  return line;
}
