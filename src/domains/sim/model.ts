/** The state of the documentation platform: projects, their custom domains and certificates. */

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** The hosting platform's fixed facts. */
export interface Platform {
  /** Domain under which every project gets its default host (`<project>.<domain>`). */
  domain: string;
  /** Addresses every project host resolves to (what an apex ALIAS flattens to). */
  addresses: string[];
  addressesV6: string[];
  /** TTL of the records the dashboard tells users to create. */
  recordTtl: number;
  /** Issuer identity of the platform's certificate authority, as CAA records name it. */
  caIdentity: string;
  /** The CA account URI, for CAA `accounturi` parameters. */
  caAccountUri: string;
  /** The ACME challenge the CA validates with, for CAA `validationmethods`. */
  validationMethod: string;
  /** Issuance takes between these after verification ("usually within a few minutes"). */
  issuanceDelayMs: [number, number];
  /** After this long without a certificate, the dashboard says so (30 minutes in the spec). */
  certificateTimeoutMs: number;
  /** Failed issuance is retried this often, for `retryWindowMs` after verification. */
  retryIntervalMs: number;
  retryWindowMs: number;
  /** Validity of issued certificates. */
  certificateLifetimeMs: number;
  /** Certificates are renewed automatically this long before they expire (nothing is renewed by the user). */
  renewBeforeMs: number;
  /** Failed renewals are retried this often (twice a day, as ACME clients do). */
  renewalRetryIntervalMs: number;
}

/** DNS and ownership axis (Vercel: "Valid Configuration" / "Invalid Configuration" / "Pending Verification"). */
export type DnsState = 'pending' | 'verified' | 'invalid';

/** Certificate axis, separate from DNS as real platforms keep it. */
export type CertificateState = 'none' | 'pending' | 'issued' | 'timed_out' | 'failed';

/** What a check expected, what DNS answered, and when trying again makes sense. */
export interface Evidence {
  expected?: string[];
  observed?: string[];
  /** Records saved at the provider but not yet answered (publish delay) or hidden by caches. */
  pending?: string[];
  retryAt?: number;
  /** The answer the decision rests on came from a resolver cache, which serves it until then. */
  cachedUntil?: number;
  hint?: string;
}

export interface DnsStatus {
  state: DnsState;
  reason: string;
  message: string;
  evidence: Evidence;
  checkedAt?: number;
}

export interface IssuedCertificateInfo {
  serialNumber: string;
  notBefore: number;
  notAfter: number;
  domains: string[];
}

export interface CertificateStatus {
  state: CertificateState;
  reason: string;
  message: string;
  evidence: Evidence;
  /** When the current issuance began (verification or Re-verify). */
  since?: number;
  nextAttemptAt?: number;
  attempts: number;
  /** The last failed attempt, kept while retrying (and after a time-out, to explain it). */
  lastError?: { at: number; reason: string; message: string; evidence: Evidence };
  issued?: IssuedCertificateInfo;
}

export interface DomainState {
  name: string;
  /** The name as the user typed it in Unicode (IDN), for display. */
  unicode: string;
  apex: boolean;
  addedAt: number;
  dns: DnsStatus;
  certificate: CertificateStatus;
}

export interface Redirect {
  from: string;
  to: string;
  status: number;
}

export interface Project {
  id: string;
  plan: Plan;
  deployed: boolean;
  /** `<id>.<platform domain>`: the CNAME target users are told to use. */
  host: string;
  domains: Map<string, DomainState>;
  primary: string | undefined;
  redirects: Redirect[];
}

/** A project as readers see it: they change it through the simulator's operations. */
export type ReadonlyProject = Readonly<Omit<Project, 'domains' | 'redirects'>> & {
  readonly domains: ReadonlyMap<string, Readonly<DomainState>>;
  readonly redirects: readonly Readonly<Redirect>[];
};

/** What one world may hold, so that a long-running `kennel serve` keeps its memory bounded. */
export const WORLD_LIMITS = {
  /** Zones at the DNS providers (the platform's own zone not counted). */
  zones: 100,
  /** Saved DNS records across every zone, the platform's own included (removed ones are forgotten). */
  records: 1_000,
  /** Custom domains attached to one project. */
  domainsPerProject: 100,
} as const;

/** The DNS record the dashboard shows after adding a domain. */
export interface RequiredRecord {
  type: 'CNAME' | 'ALIAS';
  /** Also accepted under these names (ANAME for ALIAS). */
  alternatives: string[];
  /** Relative to the apex: `docs`, or `@` for the apex itself. */
  name: string;
  value: string;
  ttl: number;
}

/** An action the dashboard refuses, with a stable code. */
export interface Refusal {
  ok: false;
  code: string;
  message: string;
  evidence?: Evidence;
}

export type Outcome<T> = { ok: true; value: T } | Refusal;

export function refuse(code: string, message: string, evidence?: Evidence): Refusal {
  return evidence ? { ok: false, code, message, evidence } : { ok: false, code, message };
}
