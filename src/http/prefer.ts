/** What a client asked for with Prism's `Prefer` conventions: `Prefer: code=404, example=not-found`. */
export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  /** `delay=200` or `delay=2s`, as sent (chaos reads it). */
  delay?: string;
  /** `fault=reset|timeout|malformed|503|rate-limit`, as sent (chaos reads it). */
  fault?: string;
  /** `retry-after=N` seconds for `fault=rate-limit`, as sent. */
  retryAfter?: string;
  /** `now=2030-12-06`: the instant this request is answered at, as sent. */
  now?: string;
}

/** The raw preferences kept as text for chaos and virtual time. */
const RAW: Readonly<Record<string, 'delay' | 'fault' | 'retryAfter' | 'now'>> = {
  delay: 'delay',
  fault: 'fault',
  'retry-after': 'retryAfter',
  now: 'now',
};

/**
 * Parses `Prefer` (RFC 7240): preferences split on `,` or `;`, unknown ones ignored and a repeated
 * one read only the first time, as the RFC says.
 */
export function parsePrefer(header: string | undefined): Preferences {
  const preferences: Preferences = {};
  if (!header) return preferences;
  const seen = new Set<string | undefined>();
  for (const part of header.split(/[,;]/)) {
    const [rawName, ...rest] = part.split('=');
    const name = rawName?.trim().toLowerCase();
    if (seen.has(name)) continue;
    seen.add(name);
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code' && /^\d{3}$/.test(value)) preferences.code = Number(value);
    else if (name === 'code') preferences.code = Number.NaN;
    else if (name === 'example' && value !== '') preferences.example = value;
    else if (name === 'dynamic') preferences.dynamic = value === '' || value.toLowerCase() === 'true';
    else if (name !== undefined && Object.hasOwn(RAW, name)) preferences[RAW[name]!] = value;
  }
  return preferences;
}

/** True when the preferences replace the real handler by a documented canned response. */
export function forcesCannedResponse(preferences: Preferences): boolean {
  return (
    preferences.example !== undefined ||
    (preferences.code !== undefined && !(preferences.code >= 200 && preferences.code < 300))
  );
}

/** The `Preference-Applied` value for what was honoured. */
export function appliedPreferences(preferences: Preferences): string {
  const parts: string[] = [];
  if (preferences.code !== undefined) parts.push(`code=${preferences.code}`);
  if (preferences.example !== undefined) parts.push(`example=${preferences.example}`);
  return parts.join(', ');
}

/** Prism's query shortcuts for its preferences (`?__code=404&__example=x&__dynamic=true`). */
const QUERY_SHORTCUTS: Readonly<Record<string, 'code' | 'example' | 'dynamic'>> = {
  __code: 'code',
  __example: 'example',
  __dynamic: 'dynamic',
};

/**
 * The preferences Prism's query shortcuts express, as a `Prefer` value (`code=404, example=x`):
 * kennel reads them only when asked to (`--prism-query`), and a `Prefer` header wins over them.
 */
export function preferFromQuery(query: Record<string, string | string[] | undefined>): string | undefined {
  const parts: string[] = [];
  for (const [name, preference] of Object.entries(QUERY_SHORTCUTS)) {
    const raw = query[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined) parts.push(`${preference}=${value.replace(/[,;]/g, '')}`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}
