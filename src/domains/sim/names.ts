import { domainToASCII, domainToUnicode } from 'node:url';
import { getDomain, getPublicSuffix } from 'tldts';

/** A domain name as kennel stores it: lower case, IDN as punycode, no trailing dot. */
export type NameCheck = { ok: true; name: string; unicode: string } | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Normalises and checks a domain name: case-insensitive, trailing dot ignored, IDN stored as
 * punycode; refuses what cannot be a custom domain (IP addresses, bad labels, public suffixes).
 */
export function checkName(input: string): NameCheck {
  const raw = input.trim().replace(/\.$/, '');
  if (raw === '') return { ok: false, reason: 'the name is empty' };
  if (/^\d+(\.\d+){3}$/.test(raw) || raw.includes(':'))
    return { ok: false, reason: `${raw} is an IP address, not a domain name` };
  if (raw.startsWith('*')) return { ok: false, reason: 'wildcard names cannot be added as custom domains' };
  const ascii = domainToASCII(raw).replace(/\.$/, '');
  if (ascii === '') return { ok: false, reason: `${JSON.stringify(raw)} is not a valid domain name` };
  if (ascii.length > 253) return { ok: false, reason: `the name is longer than 253 characters` };
  const labels = ascii.split('.');
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined)
    return {
      ok: false,
      reason: `label ${JSON.stringify(bad)} is not valid (letters, digits and inner hyphens, 1 to 63 characters)`,
    };
  if (labels.length < 2) return { ok: false, reason: `${ascii} has no parent domain` };
  if (getPublicSuffix(ascii) === ascii)
    return { ok: false, reason: `${ascii} is a public suffix, not a domain anyone can own` };
  return { ok: true, name: ascii, unicode: domainToUnicode(ascii) };
}

/** The registrable domain (apex) of a name, from the Public Suffix List: `docs.example.co.uk` → `example.co.uk`. */
export function apexOf(name: string): string {
  return getDomain(name, { allowPrivateDomains: false }) ?? name;
}

export function isApex(name: string): boolean {
  return apexOf(name) === name;
}

/** The part of `name` left of its apex (`docs` for `docs.example.com`), or `@` for the apex itself. */
export function labelOf(name: string): string {
  const apex = apexOf(name);
  return name === apex ? '@' : name.slice(0, -(apex.length + 1));
}

/** `a.b.example.com` → [`b.example.com`, `example.com`, `com`]. */
export function parentsOf(name: string): string[] {
  const labels = name.split('.');
  return labels.slice(1).map((_label, index) => labels.slice(index + 1).join('.'));
}

/** True when `name` is `zone` or lies below it. */
export function isWithin(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
}
