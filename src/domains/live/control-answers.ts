import type { CaPolicy, RateLimitUsage } from '../sim/ca-policy.js';
import type { ResolvedAnswer } from '../sim/caching-resolver.js';
import type { DnssecState } from '../sim/dnssec.js';
import type { Rcode, RecordData, ResourceRecord, Security } from '../sim/dns-types.js';
import type { DomainSimulator } from '../sim/domain-service.js';
import type { ReadonlyZone, ZoneRecord } from '../sim/dns-zones.js';
import type { HistoryEvent, QueryLogEntry } from '../sim/history.js';
import type {
  CertificateStatus,
  DnsStatus,
  DomainState,
  Evidence,
  Plan,
  ReadonlyProject,
  Redirect,
  RequiredRecord,
} from '../sim/model.js';
import { dataText } from '../sim/record-data.js';
import type { ServeResult } from '../sim/site.js';

/**
 * The control API's answers (spec/domains.yaml), each a function of the simulator's read-only
 * state: times as ISO 8601 instants, absent values left out. The dashboard reads the same answers.
 */

/** What the answers read of the simulator: never an operation that changes it. */
export type WorldReader = Pick<
  DomainSimulator,
  'now' | 'platform' | 'zones' | 'caLedger' | 'project' | 'providers' | 'resolverIds' | 'requiredRecords'
>;

/** An ISO 8601 date-time (`Instant` in spec/domains.yaml). */
type Instant = string;

export interface EvidenceAnswer {
  expected?: string[];
  observed?: string[];
  pending?: string[];
  retryAt?: Instant;
  cachedUntil?: Instant;
  hint?: string;
}
export interface DnsStatusAnswer {
  state: DnsStatus['state'];
  reason: string;
  message: string;
  evidence: EvidenceAnswer;
  checkedAt?: Instant;
}
export interface CertificateStatusAnswer {
  state: CertificateStatus['state'];
  reason: string;
  message: string;
  evidence: EvidenceAnswer;
  since?: Instant;
  nextAttemptAt?: Instant;
  attempts: number;
  lastError?: { at: Instant; reason: string; message: string };
  issued?: { serialNumber: string; notBefore: Instant; notAfter: Instant; domains: string[] };
}
export interface DomainAnswer {
  name: string;
  unicode: string;
  apex: boolean;
  project: string;
  addedAt: Instant;
  records: RequiredRecord[];
  dns: DnsStatusAnswer;
  certificate: CertificateStatusAnswer;
}
export interface ProjectAnswer {
  id: string;
  plan: Plan;
  deployed: boolean;
  host: string;
  primary?: string;
  redirects: readonly Readonly<Redirect>[];
}
export interface DnsRecordAnswer {
  id: number;
  name: string;
  type: ZoneRecord['type'];
  value: RecordData;
  ttl: number;
  savedAt: Instant;
  visibleAt: Instant;
  goneAt?: Instant;
}
export interface ZoneAnswer {
  apex: string;
  provider: string;
  records: DnsRecordAnswer[];
  failing: string[];
  dnssec: DnssecState | 'unsigned';
}
export interface AnswerRecordAnswer {
  name: string;
  type: string;
  ttl: number;
  value: RecordData;
  /** Zone-file presentation. */
  text: string;
}
export interface DnsQueryAnswer {
  rcode: Rcode;
  answers: AnswerRecordAnswer[];
  authority: AnswerRecordAnswer[];
  fromCache: boolean;
  expiresAt: Instant;
  security?: Security;
  bogus?: string;
}
export type ServedAnswer = ServeResult;
export type QueryLogAnswer = Omit<QueryLogEntry, 'at'> & { at: Instant };
export interface HistoryAnswer {
  at: Instant;
  kind: string;
  subject?: string;
  summary: string;
  detail?: Record<string, unknown>;
}
export interface CaAnswer {
  policy: CaPolicy;
  limits: (Omit<RateLimitUsage, 'nextAt'> & { nextAt: Instant; blocked: boolean })[];
}
export interface WorldAnswer {
  now: Instant;
  startedAt: Instant;
  platform: { domain: string; addresses: string[]; addressesV6: string[]; caIdentity: string };
  project: ProjectAnswer;
  domains: DomainAnswer[];
  zones: { apex: string; provider: string }[];
  providers: { id: string; name: string; supportsAlias: boolean }[];
  resolvers: string[];
  ca: CaAnswer;
}

function iso(ms: number): Instant;
function iso(ms: number | undefined): Instant | undefined;
function iso(ms: number | undefined): Instant | undefined {
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** The value without its undefined fields, as JSON would leave them out. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

function evidenceAnswer(evidence: Evidence): EvidenceAnswer {
  return compact({
    expected: evidence.expected,
    observed: evidence.observed,
    pending: evidence.pending,
    retryAt: iso(evidence.retryAt),
    cachedUntil: iso(evidence.cachedUntil),
    hint: evidence.hint,
  });
}

function dnsStatusAnswer(dns: DnsStatus): DnsStatusAnswer {
  return compact({
    state: dns.state,
    reason: dns.reason,
    message: dns.message,
    evidence: evidenceAnswer(dns.evidence),
    checkedAt: iso(dns.checkedAt),
  });
}

function certificateStatusAnswer(certificate: CertificateStatus): CertificateStatusAnswer {
  const { lastError, issued } = certificate;
  return compact({
    state: certificate.state,
    reason: certificate.reason,
    message: certificate.message,
    evidence: evidenceAnswer(certificate.evidence),
    since: iso(certificate.since),
    nextAttemptAt: iso(certificate.nextAttemptAt),
    attempts: certificate.attempts,
    lastError: lastError && { at: iso(lastError.at), reason: lastError.reason, message: lastError.message },
    issued: issued && {
      serialNumber: issued.serialNumber,
      notBefore: iso(issued.notBefore),
      notAfter: iso(issued.notAfter),
      domains: issued.domains,
    },
  });
}

export function domainAnswer(world: WorldReader, project: ReadonlyProject, domain: DomainState): DomainAnswer {
  return {
    name: domain.name,
    unicode: domain.unicode,
    apex: domain.apex,
    project: project.id,
    addedAt: iso(domain.addedAt),
    records: world.requiredRecords(project, domain),
    dns: dnsStatusAnswer(domain.dns),
    certificate: certificateStatusAnswer(domain.certificate),
  };
}

export function projectAnswer(project: ReadonlyProject): ProjectAnswer {
  return compact({
    id: project.id,
    plan: project.plan,
    deployed: project.deployed,
    host: project.host,
    primary: project.primary,
    redirects: project.redirects,
  });
}

export function dnsRecordAnswer(record: ZoneRecord): DnsRecordAnswer {
  return compact({
    id: record.id,
    name: record.name,
    type: record.type,
    value: record.data,
    ttl: record.ttl,
    savedAt: iso(record.savedAt),
    visibleAt: iso(record.visibleAt),
    goneAt: iso(record.goneAt),
  });
}

export function zoneAnswer(world: WorldReader, zone: ReadonlyZone): ZoneAnswer {
  return {
    apex: zone.apex,
    provider: zone.provider.id,
    records: world.zones.saved(zone).map(dnsRecordAnswer),
    failing: [...zone.failing],
    dnssec: zone.dnssec ?? 'unsigned',
  };
}

function answerRecordAnswer(record: ResourceRecord): AnswerRecordAnswer {
  return {
    name: record.name,
    type: record.type,
    ttl: record.ttl,
    value: record.data,
    text: `${record.name} ${record.ttl} ${record.type} ${dataText(record.type, record.data)}`,
  };
}

export function dnsQueryAnswer(answer: ResolvedAnswer): DnsQueryAnswer {
  return {
    rcode: answer.rcode,
    answers: answer.answers.map(answerRecordAnswer),
    authority: answer.authority.map(answerRecordAnswer),
    fromCache: answer.fromCache,
    expiresAt: iso(answer.expiresAt),
    ...(answer.security ? { security: answer.security } : {}),
    ...(answer.bogus ? { bogus: answer.bogus } : {}),
  };
}

export function servedAnswer(result: ServeResult): ServedAnswer {
  return { ...result };
}

export function queryLogAnswer(entry: QueryLogEntry): QueryLogAnswer {
  return { ...entry, at: iso(entry.at) };
}

export function historyAnswer(event: HistoryEvent): HistoryAnswer {
  return compact({
    at: iso(event.at),
    kind: event.kind,
    subject: event.subject,
    summary: event.summary,
    detail: event.detail,
  });
}

/** The CA's policy and the rate limits it has counted something under (none: nothing limits the next order). */
function caAnswer(world: WorldReader): CaAnswer {
  const { duplicateCertificates, certificatesPerRegisteredDomain, rejectReservedLabels } = world.caLedger.policy;
  return {
    policy: { duplicateCertificates, certificatesPerRegisteredDomain, rejectReservedLabels },
    limits: world.caLedger
      .usage(world.now)
      .map((usage) => ({ ...usage, nextAt: iso(usage.nextAt), blocked: usage.remaining === 0 })),
  };
}

/** The user's zones, the platform's own left out. */
export function userZones(world: WorldReader): readonly ReadonlyZone[] {
  return world.zones.list().filter((zone) => zone.provider.id !== 'platform');
}

/** The whole world at a glance, as the project `projectId` sees it. */
export function worldAnswer(world: WorldReader, projectId: string, startedAt: number): WorldAnswer {
  const found = world.project(projectId);
  if (!found.ok) throw new Error(`the live world has no project ${projectId}`);
  const project = found.value;
  const { domain, addresses, addressesV6, caIdentity } = world.platform;
  return {
    now: iso(world.now),
    startedAt: iso(startedAt),
    platform: { domain, addresses, addressesV6, caIdentity },
    project: projectAnswer(project),
    domains: [...project.domains.values()].map((attached) => domainAnswer(world, project, attached)),
    zones: userZones(world).map((zone) => ({ apex: zone.apex, provider: zone.provider.id })),
    providers: world
      .providers()
      .map((provider) => ({ id: provider.id, name: provider.name, supportsAlias: provider.supportsAlias })),
    resolvers: world.resolverIds(),
    ca: caAnswer(world),
  };
}
