import { ManualClock } from '../../core/clock.js';
import { Random } from '../../core/random.js';
import { CaLedger, LETS_ENCRYPT_POLICY, type CaPolicy } from './ca-policy.js';
import type { ResolvedAnswer } from './caching-resolver.js';
import { CertificateLifecycle } from './certificate-lifecycle.js';
import type { LookupOptions, QueryType } from './dns-types.js';
import { DnsZones, type NewRecord, type ReadonlyDnsZones, type ZoneChange, type ZoneRecord } from './dns-zones.js';
import type { DnssecState } from './dnssec.js';
import { History } from './history.js';
import {
  refuse,
  type DomainState,
  type Outcome,
  type Plan,
  type Platform,
  type ReadonlyProject,
  type Redirect,
  type RequiredRecord,
} from './model.js';
import { checkName } from './names.js';
import { ProjectRegistry, requiredRecords, type GateLost } from './project-registry.js';
import { PLATFORM_PROVIDER, ProviderZones } from './provider-zones.js';
import type { ProviderProfile } from './providers.js';
import { CA_RESOLVER, PLATFORM_RESOLVER, Resolvers, type ReadonlyQueryLog } from './resolvers.js';
import { serve, type ServeRequest, type ServeResult } from './site.js';
import { verifyDns } from './verifier.js';

export interface SimulatorOptions {
  platform: Platform;
  providers: readonly ProviderProfile[];
  /** Virtual start time (ms since the epoch). */
  start: number;
  seed: number;
  /** First id for saved DNS records (a live world keeps ids unique across resets). */
  firstRecordId?: number;
  /** What happens to a project's domains when it loses a gate of rule 1 (default keep-serving). */
  gateLost?: GateLost;
  /** Where certificate serials come from (default: the seeded random, so scenario runs repeat). */
  serialNumber?: () => string;
  /** The CA's identifier policy and rate limits (default: Let's Encrypt's). */
  caPolicy?: CaPolicy;
}

/**
 * The simulator's clock never passes this instant (9000-01-01): with every platform delay at most
 * 10 years (MAX_DURATION_MS), each time it reports stays a four-digit-year ISO 8601 date.
 */
export const LATEST_INSTANT = Date.UTC(9000, 0, 1);

/** What readers of the history see. */
export type ReadonlyHistory = Pick<History, 'list'>;
/** What readers of the CA's ledger see: its policy and what its rate limits have counted. */
export type ReadonlyCaLedger = Pick<CaLedger, 'policy' | 'usage'>;

/**
 * The custom-domain world of the documentation platform, as one façade: the projects (the
 * dashboard's backend), the zones at their DNS providers, the caching resolvers, certificate
 * issuance and serving, on one virtual clock with one history. Each part keeps its own state;
 * callers change the world through the operations here and read it through read-only views.
 * Pure: time is a ManualClock, randomness a seeded Random; expected outcomes are values.
 */
export class DomainSimulator {
  readonly platform: Platform;
  readonly gateLost: GateLost;
  readonly #clock: ManualClock;
  readonly #zones: DnsZones;
  readonly #providerZones: ProviderZones;
  readonly #resolvers: Resolvers;
  readonly #projects: ProjectRegistry;
  readonly #certificates: CertificateLifecycle;
  readonly #history = new History();
  /** What the CA has issued, for its rate limits (the dashboard shows what is used). */
  readonly #caLedger: CaLedger;

  constructor(options: SimulatorOptions) {
    this.platform = options.platform;
    this.gateLost = options.gateLost ?? 'keep-serving';
    this.#clock = new ManualClock(options.start);
    const now = () => this.now;
    const log = this.#log.bind(this);
    this.#zones = new DnsZones(options.firstRecordId);
    this.#zones.addZone(options.platform.domain, PLATFORM_PROVIDER);
    this.#providerZones = new ProviderZones({
      zones: this.#zones,
      providers: options.providers,
      platform: this.platform,
      now,
      log,
    });
    this.#resolvers = new Resolvers(this.#zones);
    this.#projects = new ProjectRegistry({ platform: this.platform, gateLost: this.gateLost, now, log });
    this.#caLedger = new CaLedger(options.caPolicy ?? LETS_ENCRYPT_POLICY);
    this.#certificates = new CertificateLifecycle({
      platform: options.platform,
      random: new Random(options.seed),
      now,
      lookup: (name, type) => this.#resolve(CA_RESOLVER, name, type, 'ca'),
      log,
      ...(options.serialNumber ? { serialNumber: options.serialNumber } : {}),
      ledger: this.#caLedger,
    });
  }

  get now(): number {
    return this.#clock.now();
  }

  /** The zones at their providers (the platform's own included): records, answers, ids. */
  get zones(): ReadonlyDnsZones {
    return this.#zones;
  }

  /** What happened in the world (the verifier's and CA's DNS questions included), bounded. */
  get history(): ReadonlyHistory {
    return this.#history;
  }

  /** Every question a resolver answered, the live DNS server's included: bounded, apart from the history. */
  get queryLog(): ReadonlyQueryLog {
    return this.#resolvers.queryLog;
  }

  get caLedger(): ReadonlyCaLedger {
    return this.#caLedger;
  }

  providers(): ProviderProfile[] {
    return this.#providerZones.providers();
  }

  resolverIds(): string[] {
    return this.#resolvers.ids();
  }

  // --- time -------------------------------------------------------------------------------------

  /** Moves virtual time forward, carrying out every certificate attempt and time-out due on the way. */
  advance(ms: number): Outcome<number> {
    const target = this.now + ms;
    if (!Number.isFinite(ms) || ms < 0) return refuse('invalid_duration', `cannot advance the clock by ${ms} ms`);
    if (target > LATEST_INSTANT)
      return refuse(
        'clock_limit',
        `the clock cannot pass ${new Date(LATEST_INSTANT).toISOString()}; reset the world to start again`,
      );
    for (let next = this.nextEventAt(); next !== undefined && next <= target; next = this.nextEventAt()) {
      this.#clock.advance(next - this.now);
      for (const domain of this.#projects.domains()) this.#certificates.runDue(domain);
    }
    this.#clock.advance(target - this.now);
    return { ok: true, value: this.now };
  }

  /** When the next scheduled event (certificate attempt, time-out, renewal, expiry) is due; undefined when none is. */
  nextEventAt(): number | undefined {
    const due = this.#projects.domains().flatMap((domain) => this.#certificates.dueTimes(domain.certificate));
    const next = Math.min(...due);
    return Number.isFinite(next) ? Math.max(next, this.now) : undefined;
  }

  // --- projects and the dashboard ---------------------------------------------------------------

  /** Adds a project with its default host (`<id>.<platform domain>` → the platform's addresses). */
  addProject(input: { id: string; plan: Plan; deployed: boolean }): ReadonlyProject {
    const project = this.#projects.add(input);
    for (const address of this.platform.addresses)
      this.#zones.addRecord({ name: project.host, type: 'A', data: address, ttl: 300 }, this.now);
    for (const address of this.platform.addressesV6)
      this.#zones.addRecord({ name: project.host, type: 'AAAA', data: address, ttl: 300 }, this.now);
    return project;
  }

  project(id: string): Outcome<ReadonlyProject> {
    return this.#projects.find(id);
  }

  /** The domain `name` attached to the project, if it is (the name read as the dashboard reads it). */
  domain(projectId: string, name: string): Readonly<DomainState> | undefined {
    const found = this.#projects.attached(projectId, name);
    return found.ok ? found.value.domain : undefined;
  }

  setPlan(projectId: string, plan: Plan): Outcome<ReadonlyProject> {
    return this.#projects.setPlan(projectId, plan);
  }

  setDeployed(projectId: string, deployed: boolean): Outcome<ReadonlyProject> {
    return this.#projects.setDeployed(projectId, deployed);
  }

  /**
   * A deploy finishes. A successful one satisfies rule 1; a failed one changes nothing that is served:
   * the last good deploy keeps serving (as hosting platforms do), and a project that never had a
   * successful deploy still has none.
   */
  deploy(projectId: string, result: 'succeeded' | 'failed'): Outcome<ReadonlyProject> {
    const found = this.#projects.find(projectId);
    if (!found.ok) return found;
    if (result === 'succeeded') this.#projects.setDeployed(projectId, true);
    this.#log(
      `deploy.${result}`,
      undefined,
      result === 'succeeded'
        ? `deploy of ${projectId} succeeded and is served`
        : `deploy of ${projectId} failed; ${found.value.deployed ? 'the last good deploy keeps serving' : 'still no successful deploy'}`,
    );
    return found;
  }

  /** The dashboard's "Add": checks plan, deploy and ownership, then shows the record to create. */
  addDomain(projectId: string, name: string): Outcome<{ domain: Readonly<DomainState>; records: RequiredRecord[] }> {
    return this.#projects.addDomain(projectId, name);
  }

  /** The DNS records the dashboard shows for a domain: CNAME for a subdomain, ALIAS/ANAME for an apex. */
  requiredRecords(
    project: Pick<ReadonlyProject, 'host'>,
    domain: Pick<DomainState, 'apex' | 'name'>,
  ): RequiredRecord[] {
    return requiredRecords(this.platform, project, domain);
  }

  /** The dashboard's "Verify" (and "Re-verify", which also restarts a stuck certificate). */
  verify(projectId: string, name: string, options: { reverify?: boolean } = {}): Outcome<Readonly<DomainState>> {
    const found = this.#projects.attached(projectId, name);
    if (!found.ok) return found;
    const { project, domain } = found.value;
    const gate = this.#projects.gate(project);
    if (!gate.ok) return gate;
    domain.dns = verifyDns({
      name: domain.name,
      apex: domain.apex,
      expectedHost: project.host,
      platform: this.platform,
      resolve: (n, type) => this.#resolve(PLATFORM_RESOLVER, n, type, 'verifier'),
      zones: this.#zones,
      now: this.now,
    });
    this.#log(
      options.reverify ? 'domain.reverified' : 'domain.verified',
      domain.name,
      `${domain.dns.state}: ${domain.dns.reason}`,
      { reason: domain.dns.reason },
    );
    const certificate = domain.certificate.state;
    if (
      domain.dns.state === 'verified' &&
      (certificate === 'none' || certificate === 'failed' || (options.reverify && certificate !== 'issued'))
    )
      this.#certificates.start(domain);
    return { ok: true, value: domain };
  }

  /** "Remove": the domain stops being served at once. */
  removeDomain(projectId: string, name: string): Outcome<Readonly<DomainState>> {
    return this.#projects.removeDomain(projectId, name);
  }

  /** Moves an attached domain to another project (see ProjectRegistry.moveDomain). */
  moveDomain(projectId: string, name: string, targetId: string): Outcome<Readonly<DomainState>> {
    return this.#projects.moveDomain(projectId, name, targetId);
  }

  setPrimary(projectId: string, name: string): Outcome<ReadonlyProject> {
    return this.#projects.setPrimary(projectId, name);
  }

  /** Adds `{from, to, status}`: both attached, status 301, and no loops or chains. */
  addRedirect(projectId: string, input: Redirect): Outcome<ReadonlyProject> {
    return this.#projects.addRedirect(projectId, input);
  }

  removeRedirect(projectId: string, from: string): Outcome<ReadonlyProject> {
    return this.#projects.removeRedirect(projectId, from);
  }

  // --- DNS at the providers ---------------------------------------------------------------------

  addZone(apex: string, providerId: string): Outcome<string> {
    return this.#providerZones.addZone(apex, providerId);
  }

  /** A user saves a record at their DNS provider (never in the platform's own zone). */
  addRecord(input: NewRecord): ZoneChange {
    return this.#providerZones.addRecord(input);
  }

  /** A user removes matching records at their DNS provider (answered until the publish delay has passed). */
  removeRecords(match: { name: string; type?: NewRecord['type']; data?: unknown }): Outcome<ZoneRecord[]> {
    return this.#providerZones.removeRecords(match);
  }

  /** A registered domain's registration lapses (`true`) or is renewed: the registry withdraws or restores its delegation. */
  setRegistrationLapsed(apex: string, lapsed: boolean): Outcome<null> {
    return this.#providerZones.setLapsed(apex, lapsed);
  }

  /** Makes a zone's name servers fail queries of `types` (`*`: every type; none: they answer again). */
  setZoneFailing(apex: string, types: readonly (QueryType | '*')[]): void {
    this.#zones.setFailing(apex, types);
  }

  /** Sets a zone's DNSSEC state: its provider signs it or not, its registrar publishes a DS or not. */
  setZoneDnssec(apex: string, state: DnssecState): void {
    this.#zones.setDnssec(apex, state);
  }

  // --- resolvers --------------------------------------------------------------------------------

  /** A question to a resolver now (as `dig @resolver` would ask), recorded in the query log only. */
  query(resolverId: string, name: string, type: QueryType, options: LookupOptions = {}): Outcome<ResolvedAnswer> {
    if (!this.#resolvers.has(resolverId))
      return refuse('unknown_resolver', `no resolver ${resolverId}; known: ${this.#resolvers.ids().join(', ')}`);
    const checked = checkName(name);
    const normalized = checked.ok ? checked.name : name.toLowerCase().replace(/\.$/, '');
    return { ok: true, value: this.#resolvers.lookup(resolverId, normalized, type, this.now, options) };
  }

  /** Empties the caches of every resolver; says how many answers each held. */
  flushCaches(): { resolver: string; entries: number }[] {
    return this.#resolvers.flush(this.now);
  }

  /** A question the platform's verifier or CA asks: kept in the history too, unlike `query`'s. */
  #resolve(resolverId: string, name: string, type: QueryType, by: string): ResolvedAnswer {
    const answer = this.#resolvers.lookup(resolverId, name, type, this.now);
    const { rcode, fromCache } = answer;
    this.#log('dns.query', name, `${by} asked ${resolverId} ${type} ${name}: ${rcode}${fromCache ? ' (cached)' : ''}`, {
      resolver: resolverId,
      type,
      rcode,
      fromCache,
      answers: answer.answers.length,
    });
    return answer;
  }

  // --- serving ----------------------------------------------------------------------------------

  serve(request: ServeRequest): ServeResult {
    const result = serve(this.#projects.list(), request, this.platform.domain);
    if (this.gateLost !== 'stop-serving' || result.kind === 'not-found') return result;
    const host = request.host.toLowerCase().replace(/\.$/, '');
    const project = this.#projects.ownerOf(host);
    const gate = project ? this.#projects.gate(project) : undefined;
    if (!gate || gate.ok) return result;
    return {
      kind: 'not-found',
      status: 404,
      reason: gate.code as 'plan_required' | 'no_successful_deploy',
      message: `${host} is not served: ${gate.message}`,
    };
  }

  #log(kind: string, subject: string | undefined, summary: string, detail?: Record<string, unknown>): void {
    this.#history.add({ at: this.now, kind, subject, summary, ...(detail ? { detail } : {}) });
  }
}
