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
