import { describeSeconds } from '../../core/duration.js';
import type { DomainSimulator } from '../sim/domain-service.js';
import type { DomainState } from '../sim/model.js';
import type { Expectation } from './scenario.js';
import type { Observation } from './actions/action.js';
import { dataText, recordText } from '../sim/record-data.js';
import type { ServeResult } from '../sim/site.js';

function compare(failures: string[], what: string, expected: unknown, actual: unknown): void {
  if (expected !== undefined && expected !== actual)
    failures.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** The serial a named earlier step saw (undefined: none issued then, or no such step). */
export type SerialAt = (step: string) => string | undefined;

/** Every expectation of a step that does not hold, in words. */
export function judge(
  expect: Expectation | undefined,
  observed: Observation,
  simulator: DomainSimulator,
  serialAt: SerialAt = () => undefined,
): string[] {
  if (!expect) return [];
  const failures: string[] = [];
  if (expect.anyOf) {
    const readings = expect.anyOf.map((reading) => judge(reading, observed, simulator, serialAt));
    if (readings.every((reading) => reading.length > 0))
      failures.push(
        `anyOf: no reading held: ${readings.map((reading, index) => `(${index + 1}) ${reading.join('; ')}`).join(' | ')}`,
      );
  }
  if (expect.outcome !== undefined)
    compare(failures, 'outcome', expect.outcome, observed.outcome.ok ? 'ok' : observed.outcome.code);
  for (const wanted of expect.records ?? []) {
    const found = observed.records?.some((record) =>
      Object.entries(wanted).every(
        ([key, value]) => JSON.stringify((record as unknown as Record<string, unknown>)[key]) === JSON.stringify(value),
      ),
    );
    if (!found)
      failures.push(
        `records: expected one like ${JSON.stringify(wanted)}, got ${JSON.stringify(observed.records ?? [])}`,
      );
  }
  if (expect.domain) {
    judgeDomain(failures, expect.domain, observed.domain, simulator.now);
    judgeSerial(failures, expect.domain, observed.domain?.certificate.issued?.serialNumber, serialAt);
  }
  if (expect.dns) judgeDns(failures, expect.dns, observed.dns);
  if (expect.served) judgeServed(failures, expect.served, observed.served);
  return failures;
}

function judgeDomain(
  failures: string[],
  expected: NonNullable<Expectation['domain']>,
  domain: DomainState | undefined,
  now: number,
): void {
  if (expected.attached !== undefined) compare(failures, 'domain attached', expected.attached, domain !== undefined);
  if (!domain) {
    if (expected.dns || expected.certificate || expected.reason) failures.push('domain: not attached to the project');
    return;
  }
  compare(failures, 'dns state', expected.dns, domain.dns.state);
  compare(failures, 'dns reason', expected.reason, domain.dns.reason);
  compare(failures, 'certificate state', expected.certificate, domain.certificate.state);
  compare(failures, 'certificate reason', expected.certificateReason, domain.certificate.reason);
  compare(failures, 'last issuance error', expected.lastError, domain.certificate.lastError?.reason);
  if (expected.retryWithin !== undefined) {
    const retryAt = domain.dns.evidence.retryAt;
    const limit = parseRetry(expected.retryWithin);
    if (retryAt === undefined || retryAt - now > limit)
      failures.push(
        `retry: expected within ${expected.retryWithin}, got ${retryAt === undefined ? 'none' : describeSeconds(Math.round((retryAt - now) / 1000))}`,
      );
  }
}

function judgeSerial(
  failures: string[],
  expected: NonNullable<Expectation['domain']>,
  serial: string | undefined,
  serialAt: SerialAt,
): void {
  const shown = serial ?? 'none';
  if (expected.serial !== undefined && expected.serial.toLowerCase() !== serial?.toLowerCase())
    failures.push(`serial: expected ${expected.serial}, got ${shown}`);
  if (expected.sameSerialAs !== undefined) {
    const then = serialAt(expected.sameSerialAs);
    if (then === undefined || then !== serial)
      failures.push(`serial: expected the one of step "${expected.sameSerialAs}" (${then ?? 'none'}), got ${shown}`);
  }
  if (expected.newSerialSince !== undefined) {
    const then = serialAt(expected.newSerialSince);
    if (serial === undefined || then === serial)
      failures.push(
        `serial: expected a new one since step "${expected.newSerialSince}" (${then ?? 'none'}), got ${shown}`,
      );
  }
}

function parseRetry(text: string): number {
  const match = /^(\d+)(s|m|h|d)$/.exec(text);
  const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  return match ? Number(match[1]) * units[match[2]!]! : 0;
}

function judgeDns(failures: string[], expected: NonNullable<Expectation['dns']>, dns: Observation['dns']): void {
  if (!dns) {
    failures.push('dns: the step made no DNS query');
    return;
  }
  compare(failures, 'rcode', expected.rcode, dns.rcode);
  compare(failures, 'served from cache', expected.cached, dns.fromCache);
  compare(failures, 'authenticated (AD)', expected.authenticated, dns.authenticated);
  const actual = dns.answers.map(recordText);
  if (expected.answers && JSON.stringify([...expected.answers].sort()) !== JSON.stringify([...actual].sort()))
    failures.push(`answers: expected ${JSON.stringify(expected.answers)}, got ${JSON.stringify(actual)}`);
  if (expected.withTtl) {
    const timed = dns.answers.map(
      (record) => `${record.name} ${record.ttl} ${record.type} ${dataText(record.type, record.data)}`,
    );
    if (JSON.stringify(expected.withTtl) !== JSON.stringify(timed))
      failures.push(`answers with TTL: expected ${JSON.stringify(expected.withTtl)}, got ${JSON.stringify(timed)}`);
  }
  for (const wanted of expected.includes ?? [])
    if (!actual.includes(wanted))
      failures.push(`answers: expected to include ${JSON.stringify(wanted)}, got ${JSON.stringify(actual)}`);
}

function judgeServed(
  failures: string[],
  expected: NonNullable<Expectation['served']>,
  served: ServeResult | undefined,
): void {
  if (!served) {
    failures.push('served: the step served nothing');
    return;
  }
  compare(failures, 'status', expected.status, 'status' in served ? served.status : undefined);
  compare(failures, 'location', expected.location, served.kind === 'redirect' ? served.location : undefined);
  compare(failures, 'reason', expected.reason, 'reason' in served ? served.reason : undefined);
  compare(failures, 'project', expected.project, served.kind === 'page' ? served.project : undefined);
  compare(failures, 'tls', expected.tls, served.kind === 'tls-error' ? served.reason : 'ok');
  compare(failures, 'tls failure cause', expected.cause, served.kind === 'tls-error' ? served.cause : undefined);
  compare(
    failures,
    'followed with',
    expected.followedWith,
    served.kind === 'redirect' ? served.followedWith : undefined,
  );
  const headers = 'headers' in served ? (served.headers ?? {}) : {};
  for (const [name, value] of Object.entries(expected.headers ?? {}))
    compare(failures, `header ${name.toLowerCase()}`, value, headers[name.toLowerCase()]);
}
