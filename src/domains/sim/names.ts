import { getDomain, getPublicSuffix } from 'tldts';
import { toASCII, toUnicode, type Tr46Options } from 'tr46';

/** A domain name as kennel stores it: lower case, IDN as punycode, no trailing dot. */
export type NameCheck = { ok: true; name: string; unicode: string } | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A label of a service name (`_dmarc`, `_acme-challenge`, `_domainkey`): allowed in record names, never in domains. */
const UNDERSCORE_LABEL = /^_[a-z0-9_-]{0,62}$/i;
/** Label separators UTS #46 maps to a full stop. */
const SEPARATORS = /[.\u3002\uff0e\uff61]/;

/**
 * UTS #46 (IDNA 2008 compatibility processing) through tr46: non-transitional, STD3 rules, bidi and
 * joiner checks, punycode labels decoded and validated. CheckHyphens is off, so real host names
 * with `--` in positions 3 and 4 (`r3---sn-abc.googlevideo.com`) pass; LABEL still refuses leading
 * and trailing hyphens, and lengths are checked here with clearer messages.
 */
const IDNA: Tr46Options = {
  checkHyphens: false,
  checkBidi: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  transitionalProcessing: false,
  verifyDNSLength: false,
  ignoreInvalidPunycode: false,
};

/** Why UTS #46 refuses `raw`: the first label it refuses, named. */
function idnaReason(raw: string): string {
  const bad = raw.split(SEPARATORS).find((label) => toASCII(label, IDNA) === null);
  const why =
    bad === undefined
      ? 'IDNA (UTS #46) refuses it'
      : /^xn--/i.test(bad)
        ? `label ${JSON.stringify(bad)} is not valid punycode (IDNA, UTS #46)`
        : `label ${JSON.stringify(bad)} is not allowed by IDNA (UTS #46)`;
  return `${JSON.stringify(raw)} is not a valid domain name: ${why}`;
}

/** A URL or a host with a port where a bare name belongs: says which name to type instead. */
function urlOrPortProblem(raw: string): string | undefined {
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:@]*)/i.exec(raw);
  if (url) return `${raw} is a URL, not a domain name: enter only the host name${url[1] ? ` (${url[1]})` : ''}`;
  const port = /^([^:[\]]+\.[^:[\]]+):\d+$/.exec(raw);
  if (port) return `${raw} has a port, which a DNS name cannot have: enter only the host name (${port[1]})`;
  return undefined;
}

/**
 * Normalises and checks a domain name: case-insensitive, trailing dot ignored, IDN stored as
 * punycode; refuses what cannot be a custom domain (IP addresses, bad labels, public suffixes).
 */
export function checkName(input: string): NameCheck {
  const raw = input.trim().replace(/\.$/, '');
  if (raw === '') return { ok: false, reason: 'the name is empty' };
  if (raw.length > 1024) return { ok: false, reason: `the name is longer than 253 characters` };
  const typed = urlOrPortProblem(raw);
  if (typed) return { ok: false, reason: typed };
  if (/^\d+(\.\d+){3}$/.test(raw) || raw.includes(':'))
    return { ok: false, reason: `${raw} is an IP address, not a domain name` };
  if (raw.startsWith('*')) return { ok: false, reason: 'wildcard names cannot be added as custom domains' };
  const ascii = toASCII(raw, IDNA);
  if (ascii === null) return { ok: false, reason: idnaReason(raw) };
  if (ascii === '' || ascii.endsWith('.'))
    return { ok: false, reason: `${JSON.stringify(raw)} is not a valid domain name` };
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
  return { ok: true, name: ascii, unicode: toUnicode(ascii, IDNA).domain };
}

/**
 * Checks the owner name of a DNS record: a domain name whose labels may also be service labels
 * (`_dmarc.example.com`, `_acme-challenge.docs.example.com`) and whose leftmost label may be the
 * wildcard `*` (RFC 4592). The other labels follow checkName (IDNA, lengths, public suffixes).
 */
export function checkRecordName(input: string): NameCheck {
  const raw = input.trim().replace(/\.$/, '');
  const labels = raw.split(SEPARATORS);
  const special = labels.map((label, index) => (index === 0 && label === '*') || label.startsWith('_'));
  if (labels.some((label, index) => index > 0 && label.includes('*')))
    return { ok: false, reason: 'a wildcard * is only allowed as the whole leftmost label (*.example.com)' };
  if (!special.some(Boolean)) return checkName(raw);
  const badService = labels.find((label, index) => special[index] && label !== '*' && !UNDERSCORE_LABEL.test(label));
  if (badService !== undefined)
    return {
      ok: false,
      reason: `label ${JSON.stringify(badService)} is not valid (an underscore, then letters, digits, _ and -, at most 63 characters)`,
    };
  // Each special label stands in as a plain one while the rest is checked as a domain name.
  const checked = checkName(labels.map((label, index) => (special[index] ? 'x' : label)).join('.'));
  if (!checked.ok) return checked;
  const [ascii, unicode] = [checked.name.split('.'), checked.unicode.split('.')];
  if (ascii.length !== labels.length || unicode.length !== labels.length)
    return { ok: false, reason: `${JSON.stringify(raw)} is not a valid record name` };
  const keep = (parts: string[]) =>
    parts.map((part, index) => (special[index] ? labels[index]!.toLowerCase() : part)).join('.');
  const name = keep(ascii);
  if (name.length > 253) return { ok: false, reason: `the name is longer than 253 characters` };
  return { ok: true, name, unicode: keep(unicode) };
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
