import { describeSeconds } from '../../../core/duration.js';
import type { DomainState, Outcome } from '../../sim/model.js';
import type { ServeResult } from '../../sim/site.js';

/** A domain's state as one line: DNS state and reason, retry time, certificate state and reason. */
export function domainText(domain: DomainState, now: number): string {
  const dns = `dns ${domain.dns.state} (${domain.dns.reason})`;
  const certificate = `certificate ${domain.certificate.state}${domain.certificate.state === 'none' ? '' : ` (${domain.certificate.lastError && domain.certificate.state !== 'issued' ? domain.certificate.lastError.reason : domain.certificate.reason})`}`;
  const serial = domain.certificate.state === 'issued' ? `, serial ${domain.certificate.issued!.serialNumber}` : '';
  const retry =
    domain.dns.evidence.retryAt !== undefined && domain.dns.state === 'pending'
      ? `, retry in ${describeSeconds(Math.max(0, Math.round((domain.dns.evidence.retryAt - now) / 1000)))}`
      : '';
  return `${dns}${retry}; ${certificate}${serial}`;
}

/** What the platform served, as one line. */
export function servedText(result: ServeResult, method = 'GET'): string {
  if (result.kind === 'redirect')
    return `${result.status} → ${result.location}${method === 'GET' ? '' : ` (followed with ${result.followedWith})`}`;
  if (result.kind === 'page') return `200 site of ${result.project}`;
  if (result.kind === 'tls-error') return `TLS error: ${result.reason} (${result.cause})`;
  if (result.kind === 'method-not-allowed') return `405 method not allowed (Allow: ${result.headers.allow})`;
  return `404 ${result.reason}`;
}

/** `ok`, or the refusal's code and message. */
export function refusalText(outcome: Outcome<unknown>): string {
  return outcome.ok ? 'ok' : `refused: ${outcome.code} (${outcome.message})`;
}
