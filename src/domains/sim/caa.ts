/** CAA evaluation (RFC 8659, RFC 8657 parameters) as Let's Encrypt's Boulder does it in `va/caa.go`. */
import type { CaaData, DnsAnswer, DnsLookup, Rcode, RecordData } from './dns-types.js';

export interface CaaRequest {
  /** The name the certificate is for (normalised: lower case, no trailing dot); `*.example.com` for a wildcard. */
  name: string;
  /** The CA's issuer domain name, e.g. 'letsencrypt.org' (configurable identity). */
  caIdentity: string;
  /** The CA account URI the request comes from, for `accounturi` parameters; optional. */
  accountUri?: string;
  /** The validation method used, for `validationmethods` parameters, e.g. 'http-01' | 'dns-01' | 'tls-alpn-01'. */
  validationMethod: string;
}

/** One CAA question asked while looking for the relevant set. */
export interface CaaQuery {
  name: string;
  rcode: Rcode;
  /** When the answer came from a resolver cache: until when that cache serves it. */
  cachedUntil?: number;
  /** Why a validating resolver found the answer bogus (RFC 8914 wording), e.g. `DNSKEY Missing`. */
  dnssec?: string;
}

/** What a CAA decision rests on, for people and for tests. */
export interface CaaEvidence {
  /** The name whose CAA set was relevant; undefined when no name up to the TLD had one, or a lookup failed first. */
  foundAt: string | undefined;
  /** The relevant set in presentation form, e.g. `0 issue "letsencrypt.org"`; empty without a set. */
  records: string[];
  /** Every name queried, nearest first, with the rcode it answered. */
  queries: CaaQuery[];
  /** One sentence saying what decided the outcome. */
  explanation: string;
}

export type CaaDecision =
  | { allowed: true; reason: 'no_caa_records' | 'caa_permits'; evidence: CaaEvidence }
  | { allowed: false; reason: 'caa_forbids' | 'caa_unknown_critical_tag' | 'caa_lookup_failed'; evidence: CaaEvidence };

/** One `key=value` parameter of an issue or issuewild value. */
export interface CaaParameter {
  key: string;
  value: string;
}

/** An issue or issuewild value split into its issuer domain name ('' when it names none) and parameters. */
export interface IssuerValue {
  issuer: string;
  parameters: CaaParameter[];
}

/** Bit 128 is the RFC's critical flag; Boulder also treats bit 1 as critical because many zones set it by mistake. */
const CRITICAL_FLAGS = 128 | 1;
/** Tags this evaluator recognises, so a critical flag on them never blocks (issuemail: RFC 9495, as Boulder). */
const KNOWN_TAGS = new Set(['issue', 'issuewild', 'iodef', 'issuemail']);
const PARAMETER_KEY = /^[A-Za-z0-9]+$/;
const PARAMETER_VALUE = /^[\x21-\x3a\x3c-\x7e]*$/;
const METHOD_LABEL = /^[A-Za-z0-9-]+$/;

interface RelevantSet {
  queries: CaaQuery[];
  foundAt?: string;
  failedAt?: string;
  records: CaaData[];
}

type Verdict =
  'permits' | 'malformed' | 'no_issuer' | 'other_issuer' | 'issuer_case' | 'account_mismatch' | 'method_mismatch';

const VERDICT_TEXT: Record<Verdict, string> = {
  permits: 'authorises this CA',
  malformed: 'has a malformed parameter list',
  no_issuer: 'names no CA',
  other_issuer: 'names another CA',
  issuer_case: 'differs from this CA only in case, and issuer domains are compared exactly',
  account_mismatch: 'requires another account (accounturi)',
  method_mismatch: 'excludes this validation method (validationmethods)',
};

/** Decides whether `request.caIdentity` may issue for `request.name` under the CAA records `lookup` sees. */
export function evaluateCaa(lookup: DnsLookup, request: CaaRequest): CaaDecision {
  const { base, wildcard } = splitWildcard(request.name);
  const set = findRelevantSet(lookup, base);
  if (set.failedAt !== undefined) {
    return deny(
      'caa_lookup_failed',
      set,
      `The CAA lookup for ${set.failedAt} answered ${failure(set.queries.at(-1)!)} before any CAA set was found, so issuance is refused.`,
    );
  }
  if (set.foundAt === undefined) {
    return allow('no_caa_records', set, `No CAA records at ${base} or any parent, so any CA may issue.`);
  }
  return judgeSet(set, set.foundAt, wildcard, request);
}

/** A failed CAA question as the explanation says it: `SERVFAIL (DNSSEC validation failed: DNSKEY Missing)`. */
function failure(query: CaaQuery): string {
  return query.dnssec ? `${query.rcode} (DNSSEC validation failed: ${query.dnssec})` : query.rcode;
}

/** Splits an issue or issuewild value into issuer domain and parameters (RFC 8659 §4.2); undefined when malformed. */
export function parseIssuerValue(value: string): IssuerValue | undefined {
  const [head = '', ...rest] = value.split(';');
  const issuer = trimWsp(head);
  if (rest.length === 1 && trimWsp(rest[0] ?? '') === '') return { issuer, parameters: [] };
  const parameters: CaaParameter[] = [];
  for (const text of rest) {
    const parameter = parseParameter(text);
    if (parameter === undefined) return undefined;
    parameters.push(parameter);
  }
  return { issuer, parameters };
}

/** A CAA record in zone-file presentation form, e.g. `0 issue "letsencrypt.org"`. */
export function caaRecordText(record: CaaData): string {
  return `${record.flags} ${record.tag} "${record.value.replace(/["\\]/g, '\\$&')}"`;
}

function splitWildcard(name: string): { base: string; wildcard: boolean } {
  const normalised = name.toLowerCase().replace(/\.$/, '');
  return normalised.startsWith('*.')
    ? { base: normalised.slice(2), wildcard: true }
    : { base: normalised, wildcard: false };
}

function selfAndParents(name: string): string[] {
  const labels = name.split('.');
  return labels.map((_, index) => labels.slice(index).join('.'));
}

function findRelevantSet(lookup: DnsLookup, base: string): RelevantSet {
  const queries: CaaQuery[] = [];
  for (const name of selfAndParents(base)) {
    const answer = lookup(name, 'CAA');
    queries.push({ name, rcode: answer.rcode, ...cacheOf(answer), ...(answer.bogus ? { dnssec: answer.bogus } : {}) });
    // Any answer but NOERROR or NXDOMAIN (SERVFAIL, YXDOMAIN) is a failed lookup: RFC 8659 §3 fails closed.
    if (answer.rcode !== 'NOERROR' && answer.rcode !== 'NXDOMAIN') return { queries, failedAt: name, records: [] };
    const records = caaRecordsOf(answer);
    if (records.length > 0) return { queries, foundAt: name, records };
  }
  return { queries, records: [] };
}

/** A caching resolver's answer says whether it came from cache and until when (a plain lookup says nothing). */
function cacheOf(answer: DnsAnswer): { cachedUntil?: number } {
  const resolved = answer as DnsAnswer & { fromCache?: boolean; expiresAt?: number };
  return resolved.fromCache && resolved.expiresAt !== undefined ? { cachedUntil: resolved.expiresAt } : {};
}

function caaRecordsOf(answer: DnsAnswer): CaaData[] {
  return answer.answers
    .filter((record) => record.type === 'CAA')
    .map((record) => record.data)
    .filter(isCaaData);
}

function isCaaData(data: RecordData): data is CaaData {
  return typeof data === 'object' && 'tag' in data && 'value' in data;
}

function judgeSet(set: RelevantSet, at: string, wildcard: boolean, request: CaaRequest): CaaDecision {
  const critical = set.records.find(isUnknownCritical);
  if (critical !== undefined) {
    return deny(
      'caa_unknown_critical_tag',
      set,
      `The CAA set at ${at} has the unknown tag "${critical.tag}" marked critical (flags ${critical.flags}), so no CA may issue.`,
    );
  }
  const { tag, records } = governingRecords(set.records, wildcard);
  if (records.length === 0) {
    return allow(
      'caa_permits',
      set,
      `The CAA set at ${at} has no ${wildcard ? 'issue or issuewild' : 'issue'} record, so it restricts no CA.`,
    );
  }
  const verdicts = records.map((record) => ({ record, verdict: verdictOf(record.value, request) }));
  const permitting = verdicts.find((entry) => entry.verdict === 'permits');
  if (permitting !== undefined) {
    return allow(
      'caa_permits',
      set,
      `The ${tag} record "${permitting.record.value}" at ${at} authorises ${request.caIdentity}.`,
    );
  }
  const why = verdicts.map(({ record, verdict }) => `"${record.value}" ${VERDICT_TEXT[verdict]}`).join('; ');
  return deny(
    'caa_forbids',
    set,
    `No ${tag} record at ${at} authorises ${request.caIdentity} for ${request.validationMethod}: ${why}.`,
  );
}

function isUnknownCritical(record: CaaData): boolean {
  return !KNOWN_TAGS.has(record.tag.toLowerCase()) && (record.flags & CRITICAL_FLAGS) !== 0;
}

function governingRecords(records: CaaData[], wildcard: boolean): { tag: 'issue' | 'issuewild'; records: CaaData[] } {
  const withTag = (tag: string): CaaData[] => records.filter((record) => record.tag.toLowerCase() === tag);
  const issuewild = wildcard ? withTag('issuewild') : [];
  return issuewild.length > 0 ? { tag: 'issuewild', records: issuewild } : { tag: 'issue', records: withTag('issue') };
}

function verdictOf(value: string, request: CaaRequest): Verdict {
  const parsed = parseIssuerValue(value);
  if (parsed === undefined) return 'malformed';
  if (parsed.issuer === '') return 'no_issuer';
  // Exact, as Boulder compares it (RFC 8659 §4.2 leaves the comparison to the CA): "LetsEncrypt.org" names no CA it knows.
  if (parsed.issuer !== request.caIdentity) {
    return parsed.issuer.toLowerCase() === request.caIdentity.toLowerCase() ? 'issuer_case' : 'other_issuer';
  }
  if (!accountUriMatches(parsed.parameters, request.accountUri)) return 'account_mismatch';
  if (!validationMethodMatches(parsed.parameters, request.validationMethod)) return 'method_mismatch';
  return 'permits';
}

function accountUriMatches(parameters: CaaParameter[], accountUri: string | undefined): boolean {
  const values = valuesOf(parameters, 'accounturi');
  if (values.length === 0) return true;
  return values.length === 1 && values[0] !== '' && values[0] === accountUri;
}

function validationMethodMatches(parameters: CaaParameter[], method: string): boolean {
  const values = valuesOf(parameters, 'validationmethods');
  if (values.length === 0) return true;
  if (values.length > 1) return false;
  const methods = (values[0] ?? '').split(',');
  return methods.every((label) => METHOD_LABEL.test(label)) && methods.includes(method);
}

function valuesOf(parameters: CaaParameter[], key: string): string[] {
  return parameters.filter((parameter) => parameter.key === key).map((parameter) => parameter.value);
}

function parseParameter(text: string): CaaParameter | undefined {
  const equals = text.indexOf('=');
  if (equals < 0) return undefined;
  const key = trimWsp(text.slice(0, equals));
  const value = trimWsp(text.slice(equals + 1));
  return PARAMETER_KEY.test(key) && PARAMETER_VALUE.test(value) ? { key, value } : undefined;
}

function trimWsp(text: string): string {
  return text.replace(/^[ \t]+|[ \t]+$/g, '');
}

function allow(reason: 'no_caa_records' | 'caa_permits', set: RelevantSet, explanation: string): CaaDecision {
  return { allowed: true, reason, evidence: evidenceOf(set, explanation) };
}

function deny(
  reason: 'caa_forbids' | 'caa_unknown_critical_tag' | 'caa_lookup_failed',
  set: RelevantSet,
  explanation: string,
): CaaDecision {
  return { allowed: false, reason, evidence: evidenceOf(set, explanation) };
}

function evidenceOf(set: RelevantSet, explanation: string): CaaEvidence {
  return { foundAt: set.foundAt, records: set.records.map(caaRecordText), queries: set.queries, explanation };
}
