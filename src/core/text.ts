/** Longest piece of a request a message quotes: enough to recognise it, too little to echo kilobytes back. */
export const MAX_QUOTED = 80;

/** `text` cut to `max` characters, saying how long it was. */
export function shorten(text: string, max = MAX_QUOTED): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** A value as JSON, shortened: for messages that quote what the client sent. */
export function quoteShort(value: unknown, max = MAX_QUOTED): string {
  return shorten(JSON.stringify(value) ?? String(value), max);
}

/**
 * How many code points `text` has (what JSON Schema's `minLength`/`maxLength` count): its length
 * less one for each surrogate pair, found without building an array of its characters.
 */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let offset = 0; offset < text.length - 1; offset += 1) {
    const code = text.charCodeAt(offset);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(offset + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        offset += 1;
      }
    }
  }
  return length;
}
