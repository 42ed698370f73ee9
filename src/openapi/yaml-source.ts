import { LineCounter, parseDocument, type Document } from 'yaml';
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
  return {
    ok: true,
    source: { value: document.toJS({ maxAliasCount: 100 }), lineOf: (pointer) => lineOf(document, lines, pointer) },
  };
}

function lineOf(document: Document, lines: LineCounter, pointer: string): number | undefined {
  let tokens: string[];
  try {
    tokens = tokensOf(pointer);
  } catch {
    return undefined;
  }
  for (let depth = tokens.length; depth >= 0; depth -= 1) {
    const node = document.getIn(
      tokens.slice(0, depth).map((token) => (/^\d+$/.test(token) ? Number(token) : token)),
      true,
    ) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}
