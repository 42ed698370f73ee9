import { describeSeconds } from '../../core/duration.js';
import type { Random } from '../../core/random.js';
import type { DnsLookup } from './dns-types.js';
import type { CaLedger } from './ca-policy.js';
import { attemptIssuance, type IssuanceResult } from './issuance.js';
import type { CertificateStatus, DomainState, IssuedCertificateInfo, Platform } from './model.js';

export interface LifecycleDependencies {
  platform: Platform;
  random: Random;
  now(): number;
  /** The CA's view of DNS now (the platform resolver). */
  lookup: DnsLookup;
  log(kind: string, subject: string, summary: string, detail?: Record<string, unknown>): void;
  /** Where serials come from (default: the seeded random); a live world gives unique ones across resets. */
  serialNumber?: () => string;
  /** The CA's identifier policy and rate limits, with its memory of what it issued. */
  ledger: CaLedger;
}

/**
 * A serial as X.509 encodes it unchanged: 16 bytes, hexadecimal, top bit clear (DER would add a
 * sign byte) and first byte non-zero (DER would drop it), so the serial shown is the serial served.
 */
export function serialFromBytes(bytes: readonly number[]): string {
  const [first = 1, ...rest] = bytes;
  return [first & 0x7f || 0x01, ...rest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A certificate that does not exist yet. */
export function initialCertificate(): CertificateStatus {
  return {
    state: 'none',
    reason: 'awaiting_verification',
    message: 'a certificate is issued automatically once the domain verifies',
    evidence: {},
    attempts: 0,
  };
}

/**
 * The certificate axis of a domain: issuance after verification (first attempt after a seeded
 * delay, retries every `retryIntervalMs`), the 30-minute time-out with the spec's guidance,
 * automatic renewal before expiry, and expiry when renewal keeps failing.
 */
export class CertificateLifecycle {
  constructor(private readonly deps: LifecycleDependencies) {}

  /** Starts issuance now (after Verify, or Re-verify of a stuck certificate). */
  start(domain: DomainState): void {
    const [low, high] = this.deps.platform.issuanceDelayMs;
    const delay = this.deps.random.int(Math.ceil(low / 1000), Math.floor(high / 1000)) * 1000;
    const now = this.deps.now();
    domain.certificate = {
      ...initialCertificate(),
      state: 'pending',
      reason: 'issuing',
      message: 'the certificate is being issued, usually within a few minutes',
      since: now,
      nextAttemptAt: now + delay,
    };
    this.deps.log(
      'certificate.requested',
      domain.name,
      `certificate requested; first attempt in ${Math.round(delay / 1000)} s`,
    );
  }

  /** Virtual times at which something is due for this certificate. */
  dueTimes(certificate: CertificateStatus): number[] {
    if (certificate.state === 'issued') return [certificate.nextAttemptAt ?? Infinity, certificate.issued!.notAfter];
    if (certificate.state !== 'pending' && certificate.state !== 'timed_out') return [];
    const times = [certificate.nextAttemptAt ?? Infinity];
    if (certificate.state === 'pending' && certificate.since !== undefined)
      times.push(certificate.since + this.deps.platform.certificateTimeoutMs);
    return times;
  }

  /** Carries out what is due now for the domain's certificate. */
  runDue(domain: DomainState): void {
    const now = this.deps.now();
    const certificate = domain.certificate;
    const attemptDue = certificate.nextAttemptAt !== undefined && certificate.nextAttemptAt <= now;
    if (certificate.state === 'issued') {
      if (certificate.issued!.notAfter <= now) this.#expire(domain);
      else if (attemptDue) this.#renew(domain);
      return;
    }
    if (attemptDue && (certificate.state === 'pending' || certificate.state === 'timed_out')) this.#attempt(domain);
    if (
      domain.certificate.state === 'pending' &&
      certificate.since !== undefined &&
      certificate.since + this.deps.platform.certificateTimeoutMs <= now
    )
      this.#timeOut(domain);
  }

  #serialNumber(): string {
    if (this.deps.serialNumber) return this.deps.serialNumber();
    return serialFromBytes(Array.from({ length: 16 }, () => this.deps.random.int(0, 255)));
  }

  /** One order at the CA: its policy and rate limits first (as at ACME new-order), then validation and CAA. */
  #try(domain: DomainState, renewal: boolean): IssuanceResult {
    domain.certificate.attempts += 1;
    const now = this.deps.now();
    const refusal = this.deps.ledger.refusal([domain.name], renewal, now);
    if (refusal) {
      const evidence = refusal.reason === 'rate_limited' ? { retryAt: refusal.retryAt } : {};
      return { ok: false, reason: refusal.reason, message: refusal.message, evidence };
    }
    const result = attemptIssuance({
      name: domain.name,
      platform: this.deps.platform,
      lookup: this.deps.lookup,
      at: now,
      serialNumber: this.#serialNumber(),
    });
    if (result.ok) this.deps.ledger.issued(result.certificate.domains, renewal, now);
    return result;
  }

  #attempt(domain: DomainState): void {
    const certificate = domain.certificate;
    const result = this.#try(domain, false);
    if (result.ok) {
      this.#installed(domain, result.certificate, 'issued');
      return;
    }
    const at = this.deps.now();
    certificate.lastError = { at, reason: result.reason, message: result.message, evidence: result.evidence };
    this.deps.log('certificate.attempt_failed', domain.name, `issuance failed: ${result.reason}`, {
      reason: result.reason,
      message: result.message,
    });
    if (result.reason === 'rejected_identifier') {
      // The CA will never issue for this name: retrying would only repeat the refusal.
      domain.certificate = {
        ...certificate,
        state: 'failed',
        reason: 'rejected_identifier',
        message: result.message,
        evidence: result.evidence,
        nextAttemptAt: undefined,
      };
      return;
    }
    const next = Math.max(at + this.deps.platform.retryIntervalMs, result.evidence.retryAt ?? 0);
    // A rate limit says when an order will succeed (ACME's Retry-After), so that attempt is kept even
    // past the retry window; anything else is retried only within the window.
    const rateLimited = result.reason === 'rate_limited';
    if (!rateLimited && next > (certificate.since ?? at) + this.deps.platform.retryWindowMs) {
      domain.certificate = {
        ...certificate,
        state: 'failed',
        reason: 'gave_up',
        message: `issuance failed until the retry window closed: ${result.message}`,
        evidence: result.evidence,
        nextAttemptAt: undefined,
      };
      return;
    }
    certificate.nextAttemptAt = next;
    certificate.evidence = result.evidence;
    // Before the 30-minute mark the card must not promise "usually within a few minutes" beside a failure.
    if (certificate.state === 'pending')
      certificate.message = `issuance is failing and is retried every ${describeSeconds(this.deps.platform.retryIntervalMs / 1000)}: ${result.message}`;
  }

  /** A new certificate is in place; its renewal is due `renewBeforeMs` before it expires. */
  #installed(domain: DomainState, issued: IssuedCertificateInfo, kind: 'issued' | 'renewed'): void {
    const renewAt = issued.notAfter - this.deps.platform.renewBeforeMs;
    domain.certificate = {
      ...domain.certificate,
      state: 'issued',
      reason: 'issued',
      message: `certificate ${kind} for ${domain.name}`,
      evidence: {},
      lastError: undefined,
      nextAttemptAt: renewAt,
      issued,
    };
    this.deps.log(
      `certificate.${kind}`,
      domain.name,
      `certificate ${issued.serialNumber} ${kind}; renewal due ${new Date(renewAt).toISOString()}`,
      { serialNumber: issued.serialNumber, notAfter: issued.notAfter },
    );
  }

  /** Automatic renewal: the old certificate stays in place while attempts fail, until it expires. */
  #renew(domain: DomainState): void {
    const result = this.#try(domain, true);
    if (result.ok) {
      this.#installed(domain, result.certificate, 'renewed');
      return;
    }
    const now = this.deps.now();
    domain.certificate.lastError = {
      at: now,
      reason: result.reason,
      message: result.message,
      evidence: result.evidence,
    };
    domain.certificate.nextAttemptAt = Math.max(
      now + this.deps.platform.renewalRetryIntervalMs,
      result.evidence.retryAt ?? 0,
    );
    this.deps.log('certificate.renewal_failed', domain.name, `renewal failed: ${result.reason}`, {
      reason: result.reason,
    });
  }

  #expire(domain: DomainState): void {
    const last = domain.certificate.lastError;
    domain.certificate = {
      ...domain.certificate,
      state: 'failed',
      reason: 'expired',
      message: `the certificate expired${last ? `; renewal kept failing: ${last.message}` : ''}`,
      evidence: last?.evidence ?? {},
      nextAttemptAt: undefined,
    };
    this.deps.log('certificate.expired', domain.name, 'certificate expired');
  }

  #timeOut(domain: DomainState): void {
    const certificate = domain.certificate;
    const last = certificate.lastError;
    certificate.state = 'timed_out';
    certificate.reason = 'timed_out';
    certificate.message =
      `No certificate 30 minutes after verification. Confirm the domain still verifies, check that CAA records do not block ${this.deps.platform.caIdentity}, then use Re-verify.` +
      (last ? ` Last attempt: ${last.message}.` : '');
    certificate.evidence = last?.evidence ?? {};
    this.deps.log('certificate.timed_out', domain.name, 'no certificate after 30 minutes');
  }
}
