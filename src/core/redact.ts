/**
 * Hides credentials in what kennel shows or keeps (journal, logs, reports): every configured secret
 * wherever it appears, and the values of headers, query parameters and cookies that carry
 * credentials, whatever their value.
 */

/** A value that must never be shown, and what to show instead (`[api key 1]`, `$KENNEL_API_KEY`). */
export interface Secret {
  value: string;
  label: string;
}

export interface RedactionRules {
  secrets: readonly Secret[];
  /** Header names whose values are credentials, beside those whose names say so (`isCredentialHeader`). */
  headers?: readonly string[];
  /** Query parameter names whose values are credentials (beside the well-known ones); case-insensitive. */
  queryParameters?: readonly string[];
}

/** What replaces a credential that is not a configured secret. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are not looked for in free text: replacing them everywhere would garble it. */
export const MIN_SECRET_LENGTH = 4;

/**
 * Header names that say they carry a credential: `Authorization`, `Proxy-Authorization`, `Cookie`,
 * `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`, `X-Session-Id`, `Api-Key`… Broad on purpose: hiding a
 * harmless value costs less than showing a secret.
 */
const CREDENTIAL_HEADER_NAME = /auth|token|secret|passw(?:or)?d|key|cookie|session|credential/i;

/** True when a header's name says it carries a credential. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER_NAME.test(name);
}

/** `access_token` is RFC 6750 §2.3's; the others are what APIs commonly call a key in the query. */
const CREDENTIAL_PARAMETERS = ['access_token', 'api_key', 'apikey', 'api-key', 'key', 'token', 'auth', 'password'];
const COOKIE_HEADERS = new Set(['cookie', 'set-cookie']);
/** An authentication scheme name worth keeping (`Bearer`, `Basic`), as opposed to a credential. */
const SCHEME = /^[A-Za-z][A-Za-z0-9-]{0,19}$/;

/**
 * The user information of every `scheme://user:password@` in `text`, up to the last `@` before the
 * path, parsable URL or not (`redis://:pw@host:99999`, `http://a:b@[::1`).
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** `text` with the user and password of every URL in it hidden: what error messages may quote. */
export function hideUrlCredentials(text: string): string {
  return text.replace(URL_USERINFO, `$1${REDACTED}@`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The spellings of a secret that may appear in text: as is, URL-encoded, JSON-escaped, and its near misses. */
function spellings(value: string): string[] {
  const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1), xmlEscaped(value)]);
  // A checker sends the key minus its last character as a near miss: that is almost the key.
  if (value.length >= 2 * MIN_SECRET_LENGTH) forms.add(value.slice(0, -1));
  return [...forms];
}

export class Redactor {
  readonly #labels = new Map<string, string>();
  readonly #pattern: RegExp | undefined;
  readonly #headers: ReadonlySet<string>;
  readonly #parameters: ReadonlySet<string>;

  constructor(rules: RedactionRules) {
    const secrets = rules.secrets.filter((secret) => secret.value.length >= MIN_SECRET_LENGTH);
    for (const secret of secrets) {
      for (const form of spellings(secret.value)) this.#labels.set(form.toLowerCase(), secret.label);
    }
    const forms = [...this.#labels.keys()].sort((a, b) => b.length - a.length);
    this.#pattern = forms.length > 0 ? new RegExp(forms.map(escapeRegExp).join('|'), 'gi') : undefined;
    this.#headers = new Set((rules.headers ?? []).map((name) => name.toLowerCase()));
    this.#parameters = new Set(
      [...CREDENTIAL_PARAMETERS, ...(rules.queryParameters ?? [])].map((name) => name.toLowerCase()),
    );
  }

  /** Text with every configured secret replaced by its label (case-insensitively: near misses are secrets too). */
  text(value: string): string {
    if (!this.#pattern) return value;
    this.#pattern.lastIndex = 0;
    if (!this.#pattern.test(value)) return value;
    return value.replace(this.#pattern, (found) => this.#labels.get(found.toLowerCase()) ?? REDACTED);
  }

  /** A request target with the values of credential query parameters hidden, then `text` applied. */
  url(target: string): string {
    const query = target.indexOf('?');
    if (query === -1) return this.text(target);
    const pairs = target
      .slice(query + 1)
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=');
        if (equals === -1) return pair;
        const name = safeDecode(pair.slice(0, equals)).toLowerCase();
        return this.#parameters.has(name)
          ? `${pair.slice(0, equals)}=${this.#credential(pair.slice(equals + 1))}`
          : pair;
      });
    return this.text(`${target.slice(0, query)}?${pairs.join('&')}`);
  }

  /** Headers with credential values hidden (keeping an auth scheme and cookie names), then `text` applied. */
  headers<T>(headers: Readonly<Record<string, T>>): Record<string, T | string | string[]> {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.#header(name, value)]));
  }

  #header<T>(name: string, value: T): T | string | string[] {
    const lower = name.toLowerCase();
    const secret = this.#headers.has(lower) || isCredentialHeader(lower);
    const hide = (item: string) => this.text(secret ? this.#headerValue(lower, item) : item);
    if (typeof value === 'string') return hide(value);
    if (Array.isArray(value)) return value.map((item) => hide(String(item)));
    return value;
  }

  #headerValue(name: string, value: string): string {
    if (COOKIE_HEADERS.has(name)) return this.#cookies(value);
    const trimmed = value.trim();
    const space = trimmed.search(/\s/);
    if (space === -1) return this.#credential(trimmed);
    const scheme = trimmed.slice(0, space);
    if (!SCHEME.test(scheme)) return REDACTED;
    return `${scheme} ${this.#credential(trimmed.slice(space).trim())}`;
  }

  /** `a=1; b=2` → `a=[redacted]; b=[redacted]`: names help, values are credentials. */
  #cookies(value: string): string {
    return value
      .split(';')
      .map((part) => {
        const equals = part.indexOf('=');
        return equals === -1 ? part : `${part.slice(0, equals)}=${this.#credential(part.slice(equals + 1).trim())}`;
      })
      .join(';');
  }

  /** A credential's label when it is a configured secret (so keys stay tellable apart), else `[redacted]`. */
  #credential(value: string): string {
    return this.#labels.get(safeDecode(value).toLowerCase()) ?? REDACTED;
  }
}

/** As XML reports escape text (the JUnit reporter's escaping). */
function xmlEscaped(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}
