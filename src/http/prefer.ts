/** What a client asked for with Prism's `Prefer` conventions: `Prefer: code=404, example=not-found`. */
export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
}

/** Parses `Prefer` (RFC 7240): preferences split on `,` or `;`, unknown ones ignored as the RFC says. */
export function parsePrefer(header: string | undefined): Preferences {
  const preferences: Preferences = {};
  if (!header) return preferences;
  for (const part of header.split(/[,;]/)) {
    const [rawName, ...rest] = part.split('=');
    const name = rawName?.trim().toLowerCase();
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code' && /^\d{3}$/.test(value)) preferences.code = Number(value);
    else if (name === 'code') preferences.code = Number.NaN;
    else if (name === 'example' && value !== '') preferences.example = value;
    else if (name === 'dynamic') preferences.dynamic = value === '' || value.toLowerCase() === 'true';
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
