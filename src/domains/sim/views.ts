import type { ResolvedAnswer } from './caching-resolver.js';
import type { ResourceRecord } from './dns-types.js';
import type { DomainSimulator } from './domain-service.js';
import type { ZoneRecord, Zone } from './dns-world.js';
import type { HistoryEvent, QueryLogEntry } from './history.js';
import type { CertificateStatus, DnsStatus, DomainState, Evidence, Project } from './model.js';
import { dataText } from './record-data.js';
import type { ServeResult } from './site.js';

/** The simulator's state as JSON for the control API (times as ISO 8601), matching spec/domains.yaml. */

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

export function evidenceView(evidence: Evidence) {
  return compact({
    expected: evidence.expected,
    observed: evidence.observed,
    pending: evidence.pending,
    retryAt: iso(evidence.retryAt),
    cachedUntil: iso(evidence.cachedUntil),
    hint: evidence.hint,
  });
}

function dnsView(dns: DnsStatus) {
  return compact({
    state: dns.state,
    reason: dns.reason,
    message: dns.message,
    evidence: evidenceView(dns.evidence),
    checkedAt: iso(dns.checkedAt),
  });
}

function certificateView(certificate: CertificateStatus) {
  return compact({
    state: certificate.state,
    reason: certificate.reason,
    message: certificate.message,
    evidence: evidenceView(certificate.evidence),
    since: iso(certificate.since),
    nextAttemptAt: iso(certificate.nextAttemptAt),
    attempts: certificate.attempts,
    lastError: certificate.lastError && {
      at: iso(certificate.lastError.at)!,
      reason: certificate.lastError.reason,
      message: certificate.lastError.message,
    },
    issued: certificate.issued && {
      serialNumber: certificate.issued.serialNumber,
      notBefore: iso(certificate.issued.notBefore)!,
      notAfter: iso(certificate.issued.notAfter)!,
      domains: certificate.issued.domains,
    },
  });
}

export function domainView(simulator: DomainSimulator, project: Project, domain: DomainState) {
  return {
    name: domain.name,
    unicode: domain.unicode,
    apex: domain.apex,
    project: project.id,
    addedAt: iso(domain.addedAt)!,
    records: simulator.requiredRecords(project, domain),
    dns: dnsView(domain.dns),
    certificate: certificateView(domain.certificate),
  };
}

export function projectView(project: Project) {
  return compact({
    id: project.id,
    plan: project.plan,
    deployed: project.deployed,
    host: project.host,
    primary: project.primary,
    redirects: project.redirects,
  });
}

export function recordView(record: ZoneRecord) {
  return compact({
    id: record.id,
    name: record.name,
    type: record.type,
    value: record.data,
    ttl: record.ttl,
    savedAt: iso(record.savedAt)!,
    visibleAt: iso(record.visibleAt)!,
    goneAt: iso(record.goneAt),
  });
}

export function zoneView(simulator: DomainSimulator, zone: Zone) {
  return {
    apex: zone.apex,
    provider: zone.provider.id,
    records: simulator.world.saved(zone).map(recordView),
    failing: [...zone.failing],
    dnssec: zone.dnssec ?? 'unsigned',
  };
}

function answerRecord(record: ResourceRecord) {
  return {
    name: record.name,
    type: record.type,
    ttl: record.ttl,
    value: record.data,
    text: `${record.name} ${record.ttl} ${record.type} ${dataText(record.type, record.data)}`,
  };
}

export function answerView(answer: ResolvedAnswer) {
  return {
    rcode: answer.rcode,
    answers: answer.answers.map(answerRecord),
    authority: answer.authority.map(answerRecord),
    fromCache: answer.fromCache,
    expiresAt: iso(answer.expiresAt)!,
    ...(answer.security ? { security: answer.security } : {}),
    ...(answer.bogus ? { bogus: answer.bogus } : {}),
  };
}

export function serveView(result: ServeResult) {
  return { ...result };
}

/** A query log entry as the control API shows it (QueryLogEntry in spec/domains.yaml). */
export function queryLogView(entry: QueryLogEntry) {
  return { ...entry, at: iso(entry.at)! };
}

export function historyView(event: HistoryEvent) {
  return compact({
    at: iso(event.at)!,
    kind: event.kind,
    subject: event.subject,
    summary: event.summary,
    detail: event.detail,
  });
}

/** The whole world at a glance. */
export function worldView(simulator: DomainSimulator, projectId: string, startedAt: number) {
  const project = simulator.projects.get(projectId)!;
  return {
    now: iso(simulator.now)!,
    startedAt: iso(startedAt)!,
    platform: {
      domain: simulator.platform.domain,
      addresses: simulator.platform.addresses,
      addressesV6: simulator.platform.addressesV6,
      caIdentity: simulator.platform.caIdentity,
    },
    project: projectView(project),
    domains: [...project.domains.values()].map((domain) => domainView(simulator, project, domain)),
    zones: simulator.world
      .zones()
      .filter((zone) => zone.provider.id !== 'platform')
      .map((zone) => ({ apex: zone.apex, provider: zone.provider.id })),
    providers: simulator
      .providers()
      .map((provider) => ({ id: provider.id, name: provider.name, supportsAlias: provider.supportsAlias })),
    resolvers: [...simulator.resolvers.keys()],
    ca: caView(simulator),
  };
}

/** The CA's policy and the rate limits it has counted something under (none: nothing limits the next order). */
function caView(simulator: DomainSimulator) {
  const { duplicateCertificates, certificatesPerRegisteredDomain, rejectReservedLabels } = simulator.caLedger.policy;
  return {
    policy: { duplicateCertificates, certificatesPerRegisteredDomain, rejectReservedLabels },
    limits: simulator.caLedger
      .usage(simulator.now)
      .map((usage) => ({ ...usage, nextAt: iso(usage.nextAt)!, blocked: usage.remaining === 0 })),
  };
}
