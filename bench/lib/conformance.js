// What the reliability suite holds every response to, and how it keeps secrets out of its own report.

/** True for a JSON media type as the spec's `Error` needs it: application/json with any parameters. */
export function isJsonContentType(value) {
  return typeof value === 'string' && /^application\/json\s*(;|$)/i.test(value.trim());
}

/**
 * Why an error response is not the spec's `Error` ({code: string, message: string, status: integer
 * equal to the HTTP status} as application/json), or undefined when it conforms. `head` skips the
 * body (a HEAD answer carries none).
 */
export function errorProblem(response, { head = false } = {}) {
  if (head) return undefined;
  const contentType = response.headers['content-type'];
  if (Array.isArray(contentType)) return `${contentType.length} Content-Type headers`;
  if (!isJsonContentType(contentType))
    return `Content-Type ${JSON.stringify(contentType ?? null)}, not application/json`;
  let body;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return 'body is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body is not a JSON object';
  if (typeof body.code !== 'string' || body.code === '') return 'code is not a non-empty string';
  if (typeof body.message !== 'string') return 'message is not a string';
  if (!Number.isInteger(body.status)) return 'status is not an integer';
  if (body.status !== response.status) return `status ${body.status} differs from the HTTP status ${response.status}`;
  return undefined;
}

/**
 * Windows of `size` characters of each secret, every `step` characters: any stretch of
 * size + step - 1 characters of a secret contains one, so finding none means no more than that
 * leaked (a redacted journal may show the first 4 characters of a key).
 */
export function secretFragments(secrets, { size = 8, step = 4 } = {}) {
  const fragments = new Map();
  for (const [label, secret] of Object.entries(secrets))
    for (let start = 0; start + size <= secret.length; start += step)
      fragments.set(secret.slice(start, start + size), label);
  return fragments;
}

/** Labels of the secrets a fragment of which occurs in `text`. */
export function leakedIn(text, fragments) {
  const found = new Set();
  if (!text) return found;
  for (const [fragment, label] of fragments) if (!found.has(label) && text.includes(fragment)) found.add(label);
  return found;
}

/**
 * Scans a stream of text chunks for secret fragments without keeping the text: the last few
 * characters are carried over so a fragment split between two chunks is still found.
 */
export class LeakScanner {
  #fragments;
  #carry = '';
  #size;
  /** label -> occurrences found (at most one count per chunk). */
  found = new Map();

  constructor(fragments, size = 8) {
    this.#fragments = fragments;
    this.#size = size;
  }

  push(chunk) {
    const text = this.#carry + chunk;
    for (const label of leakedIn(text, this.#fragments)) this.found.set(label, (this.found.get(label) ?? 0) + 1);
    this.#carry = text.slice(-(this.#size - 1));
  }
}

/** Replaces every secret (and every long fragment of one) by its label, for anything printed or saved. */
export function redactor(secrets) {
  const entries = Object.entries(secrets).sort((a, b) => b[1].length - a[1].length);
  return (text) => {
    let out = String(text);
    for (const [label, secret] of entries) out = out.split(secret).join(`<${label}>`);
    for (const [label, secret] of entries)
      for (let start = 0; start + 8 <= secret.length; start += 1) {
        const fragment = secret.slice(start, start + 8);
        if (out.includes(fragment)) out = out.split(fragment).join(`<part of ${label}>`);
      }
    return out;
  };
}
