import { ManualClock } from '../../core/clock.js';
import { Random } from '../../core/random.js';
import { CachingResolver, type ResolvedAnswer } from './caching-resolver.js';
import type { LookupOptions, QueryType } from './dns-types.js';
import { DnsWorld, type NewRecord, type ZoneChange, type ZoneRecord } from './dns-world.js';
import { History, QueryLog } from './history.js';
import { CertificateLifecycle, initialCertificate } from './certificate-lifecycle.js';
import {
  refuse,
  type DomainState,
  type Outcome,
  type Plan,
  type Platform,
  type Project,
  type Redirect,
  type RequiredRecord,
} from './model.js';
import { checkName, checkRecordName, isApex, isWithin, labelOf } from './names.js';
import type { ProviderProfile } from './providers.js';
import { serve, type ServeRequest, type ServeResult } from './site.js';
import { CaLedger, LETS_ENCRYPT_POLICY, type CaPolicy } from './ca-policy.js';
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
 * Rule 1 after the fact: a verified domain whose project is downgraded to the free plan or loses
 * its successful deploy. The product spec states the gate only for adding a domain; platforms
 * differ on what follows. `keep-serving` (the default: nothing in the spec takes a served domain
 * away) serves on, `stop-serving` answers 404 with the gate's code until the gate holds again (the
 * domain stays attached and verified), `remove-domains` detaches every domain as Remove would.
 */
export const GATE_LOST = ['keep-serving', 'stop-serving', 'remove-domains'] as const;
export type GateLost = (typeof GATE_LOST)[number];

/** The resolver the platform's verifier uses (`--platform-dns-port`). */
export const PLATFORM_RESOLVER = 'platform';
/** The resolver `dig` steps and the live DNS server ask by default: a public one (8.8.8.8, 1.1.1.1). */
export const PUBLIC_RESOLVER = 'public';
/** The CA's own resolver, with its own cache: Let's Encrypt runs its own validating Unbound. */
export const CA_RESOLVER = 'ca';
/** A resolver that does not validate DNSSEC (many ISP and office resolvers): it answers bogus zones. */
export const NON_VALIDATING_RESOLVER = 'non-validating';

/**
 * Every resolver of the world and whether it validates DNSSEC (RFC 4035 §4). Public resolvers and
 * Let's Encrypt's validate; the platform's verifier is taken to use a validating one as well.
 */
export const RESOLVERS = [
  { id: PUBLIC_RESOLVER, validating: true },
  { id: PLATFORM_RESOLVER, validating: true },
  { id: CA_RESOLVER, validating: true },
  { id: NON_VALIDATING_RESOLVER, validating: false },
] as const;

/**
 * The simulator's clock never passes this instant (9000-01-01): with every platform delay at most
 * 10 years (MAX_DURATION_MS), each time it reports stays a four-digit-year ISO 8601 date.
 */
export const LATEST_INSTANT = Date.UTC(9000, 0, 1);

/** What one world may hold, so that a long-running `kennel serve` keeps its memory bounded. */
export const WORLD_LIMITS = {
  /** Zones at the DNS providers (the platform's own zone not counted). */
  zones: 100,
  /** Saved DNS records across every zone, the platform's own included (removed ones are forgotten). */
  records: 1_000,
  /** Custom domains attached to one project. */
  domainsPerProject: 100,
} as const;

const PLATFORM_PROVIDER: ProviderProfile = {
  id: 'platform',
  name: 'the platform',
  supportsAlias: true,
  cnameWithOtherData: 'reject',
  publishDelayMs: 0,
  negativeTtl: 60,
  defaultTtl: 300,
  caaQueries: 'answered',
};

/**
 * The custom-domain world of the documentation platform: DNS zones at their providers, caching
 * resolvers, projects with domains (the dashboard's backend), certificate issuance and serving.
 * Pure: time is a ManualClock, randomness a seeded Random; expected outcomes are values.
 */
export class DomainSimulator {
  readonly clock: ManualClock;
  readonly world: DnsWorld;
  readonly history = new History();
  /** Every question a resolver answered, the live DNS server's included: bounded, apart from the history. */
  readonly queryLog = new QueryLog();
  readonly projects = new Map<string, Project>();
  readonly resolvers = new Map<string, CachingResolver>();
  readonly platform: Platform;
  readonly #providers: Map<string, ProviderProfile>;
  readonly #certificates: CertificateLifecycle;
  /** What the CA has issued, for its rate limits (the dashboard shows what is used). */
  readonly caLedger: CaLedger;
  readonly gateLost: GateLost;

  constructor(options: SimulatorOptions) {
    this.platform = options.platform;
    this.gateLost = options.gateLost ?? 'keep-serving';
    this.world = new DnsWorld(options.firstRecordId);
    this.clock = new ManualClock(options.start);
    this.caLedger = new CaLedger(options.caPolicy ?? LETS_ENCRYPT_POLICY);
    this.#certificates = new CertificateLifecycle({
      platform: options.platform,
      random: new Random(options.seed),
      now: () => this.now,
      lookup: (name, type) => this.#resolve(CA_RESOLVER, name, type, 'ca'),
      log: (kind, subject, summary, detail) => this.#log(kind, subject, summary, detail),
      ...(options.serialNumber ? { serialNumber: options.serialNumber } : {}),
      ledger: this.caLedger,
    });
    this.#providers = new Map(options.providers.map((provider) => [provider.id, provider]));
    for (const { id, validating } of RESOLVERS)
      this.resolvers.set(id, new CachingResolver(id, this.world, { validating }));
    this.world.addZone(options.platform.domain, PLATFORM_PROVIDER);
  }

  get now(): number {
    return this.clock.now();
  }

  provider(id: string): ProviderProfile | undefined {
    return this.#providers.get(id);
  }

  providers(): ProviderProfile[] {
    return [...this.#providers.values()];
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
    for (let next = this.#nextDue(); next !== undefined && next <= target; next = this.#nextDue()) {
      this.clock.advance(next - this.now);
      this.#runDue();
    }
    this.clock.advance(target - this.now);
    return { ok: true, value: this.now };
  }

  /** When the next scheduled event (certificate attempt, time-out, renewal, expiry) is due; undefined when none is. */
  nextEventAt(): number | undefined {
    return this.#nextDue();
  }

  #domains(): DomainState[] {
    return [...this.projects.values()].flatMap((project) => [...project.domains.values()]);
  }

  #nextDue(): number | undefined {
    const next = Math.min(...this.#domains().flatMap((domain) => this.#certificates.dueTimes(domain.certificate)));
    return Number.isFinite(next) ? Math.max(next, this.now) : undefined;
  }

  #runDue(): void {
    for (const domain of this.#domains()) this.#certificates.runDue(domain);
  }

  // --- projects and the dashboard ---------------------------------------------------------------

  /** Adds a project with its default host (`<id>.<platform domain>` → the platform's addresses). */
  addProject(input: { id: string; plan: Plan; deployed: boolean }): Project {
    const host = `${input.id}.${this.platform.domain}`;
    const project: Project = {
      id: input.id,
      plan: input.plan,
      deployed: input.deployed,
      host,
      domains: new Map(),
      primary: undefined,
      redirects: [],
    };
    this.projects.set(input.id, project);
    for (const address of this.platform.addresses)
      this.world.addRecord({ name: host, type: 'A', data: address, ttl: 300 }, this.now);
    for (const address of this.platform.addressesV6)
      this.world.addRecord({ name: host, type: 'AAAA', data: address, ttl: 300 }, this.now);
    return project;
  }

  project(id: string): Outcome<Project> {
    const project = this.projects.get(id);
    return project ? { ok: true, value: project } : refuse('project_not_found', `no project ${id}`);
  }

  setPlan(projectId: string, plan: Plan): Outcome<Project> {
    const found = this.project(projectId);
    if (found.ok) {
      found.value.plan = plan;
      this.#afterGate(found.value);
    }
    return found;
  }

  setDeployed(projectId: string, deployed: boolean): Outcome<Project> {
    const found = this.project(projectId);
    if (found.ok) {
      found.value.deployed = deployed;
      this.#afterGate(found.value);
    }
    return found;
  }

  /**
   * A deploy finishes. A successful one satisfies rule 1; a failed one changes nothing that is served:
   * the last good deploy keeps serving (as hosting platforms do), and a project that never had a
   * successful deploy still has none.
   */
  deploy(projectId: string, result: 'succeeded' | 'failed'): Outcome<Project> {
    const found = this.project(projectId);
    if (!found.ok) return found;
    if (result === 'succeeded') this.setDeployed(projectId, true);
    this.#log(
      `deploy.${result}`,
      undefined,
      result === 'succeeded'
        ? `deploy of ${projectId} succeeded and is served`
        : `deploy of ${projectId} failed; ${found.value.deployed ? 'the last good deploy keeps serving' : 'still no successful deploy'}`,
    );
    return found;
  }

  /** Carries out the world's gateLost policy when a project no longer passes rule 1's gate. */
  #afterGate(project: Project): void {
    const gate = this.#gate(project);
    if (gate.ok || project.domains.size === 0) return;
    if (this.gateLost === 'remove-domains') {
      for (const name of [...project.domains.keys()]) this.removeDomain(project.id, name);
      return;
    }
    this.#log(
      'domain.gate_lost',
      project.id,
      `${gate.code}: custom domains ${this.gateLost === 'stop-serving' ? 'are not served until it is fixed' : 'keep being served'}`,
    );
  }

  #gate(project: Project): Outcome<Project> {
    if (project.plan === 'free') return refuse('plan_required', 'custom domains need a paid plan (Pro or above)');
    if (!project.deployed)
      return refuse('no_successful_deploy', 'custom domains need a successful deploy of the project first');
    return { ok: true, value: project };
  }

  #owner(name: string): Project | undefined {
    return [...this.projects.values()].find((project) => project.domains.has(name));
  }

  /** The dashboard's "Add": checks plan, deploy and ownership, then shows the record to create. */
  addDomain(projectId: string, input: string): Outcome<{ domain: DomainState; records: RequiredRecord[] }> {
    const found = this.project(projectId);
    if (!found.ok) return found;
    const project = found.value;
    const checked = checkName(input);
    if (!checked.ok) return refuse('invalid_name', checked.reason);
    const gate = this.#gate(project);
    if (!gate.ok) return gate;
    const name = checked.name;
    if (isWithin(name, this.platform.domain))
      return refuse('platform_domain', `${name} belongs to the platform; add a domain you own`);
    const owner = this.#owner(name);
    if (owner === project) return refuse('already_added', `${name} is already attached to this project`);
    if (owner) return refuse('domain_taken', `${name} is already attached to another project`);
    if (project.domains.size >= WORLD_LIMITS.domainsPerProject)
      return refuse(
        'domain_limit',
        `a project holds at most ${WORLD_LIMITS.domainsPerProject} custom domains; remove one first`,
      );
    const apex = isApex(name);
    const domain: DomainState = {
      name,
      unicode: checked.unicode,
      apex,
      addedAt: this.now,
      dns: {
        state: 'pending',
        reason: 'not_verified',
        message: 'create the DNS record shown, then use Verify',
        evidence: {},
      },
      certificate: initialCertificate(),
    };
    project.domains.set(name, domain);
    const records = this.requiredRecords(project, domain);
    this.#log(
      'domain.added',
      name,
      `added to ${project.id}; create ${records[0]!.type} ${records[0]!.name} → ${records[0]!.value}`,
    );
    return { ok: true, value: { domain, records } };
  }

  /** The DNS records the dashboard shows for a domain: CNAME for a subdomain, ALIAS/ANAME for an apex. */
  requiredRecords(project: Project, domain: DomainState): RequiredRecord[] {
    const record: RequiredRecord = domain.apex
      ? { type: 'ALIAS', alternatives: ['ANAME'], name: '@', value: project.host, ttl: this.platform.recordTtl }
      : {
          type: 'CNAME',
          alternatives: [],
          name: labelOf(domain.name),
          value: project.host,
          ttl: this.platform.recordTtl,
        };
    return [record];
  }

  #domain(projectId: string, input: string): Outcome<{ project: Project; domain: DomainState }> {
    const found = this.project(projectId);
    if (!found.ok) return found;
    const checked = checkName(input);
    const domain = checked.ok ? found.value.domains.get(checked.name) : undefined;
    if (!domain) return refuse('domain_not_found', `${input} is not attached to project ${projectId}`);
    return { ok: true, value: { project: found.value, domain } };
  }

  /** The dashboard's "Verify" (and "Re-verify", which also restarts a stuck certificate). */
  verify(projectId: string, name: string, options: { reverify?: boolean } = {}): Outcome<DomainState> {
    const found = this.#domain(projectId, name);
    if (!found.ok) return found;
    const { project, domain } = found.value;
    const gate = this.#gate(project);
    if (!gate.ok) return gate;
    domain.dns = verifyDns({
      name: domain.name,
      apex: domain.apex,
      expectedHost: project.host,
      platform: this.platform,
      resolve: (n, type) => this.#resolve(PLATFORM_RESOLVER, n, type, 'verifier'),
      world: this.world,
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
  removeDomain(projectId: string, name: string): Outcome<DomainState> {
    const found = this.#domain(projectId, name);
    if (!found.ok) return found;
    const { project, domain } = found.value;
    project.domains.delete(domain.name);
    if (project.primary === domain.name) project.primary = undefined;
    project.redirects = project.redirects.filter(
      (redirect) => redirect.from !== domain.name && redirect.to !== domain.name,
    );
    this.#log('domain.removed', domain.name, `removed from ${project.id}; no longer served`);
    return { ok: true, value: domain };
  }

  /**
   * Moves an attached domain to another project, as platforms offer it: DNS state and certificate
   * move with it (the platform holds both), primary and redirects stay behind. The target must pass
   * rule 1's gate. The CNAME the dashboard now shows is the target's host, so a CNAME still pointing
   * at the old project's host fails the next Re-verify (cname_mismatch).
   */
  moveDomain(projectId: string, name: string, targetId: string): Outcome<DomainState> {
    const found = this.#domain(projectId, name);
    if (!found.ok) return found;
    const target = this.project(targetId);
    if (!target.ok) return target;
    const { project, domain } = found.value;
    if (target.value === project) return refuse('already_added', `${domain.name} is already attached to ${targetId}`);
    const gate = this.#gate(target.value);
    if (!gate.ok) return gate;
    if (target.value.domains.size >= WORLD_LIMITS.domainsPerProject)
      return refuse('domain_limit', `${targetId} already holds ${WORLD_LIMITS.domainsPerProject} custom domains`);
    this.removeDomain(projectId, domain.name);
    target.value.domains.set(domain.name, domain);
    this.#log('domain.moved', domain.name, `moved from ${project.id} to ${targetId}; served by ${targetId}`);
    return { ok: true, value: domain };
  }

  setPrimary(projectId: string, name: string): Outcome<Project> {
    const found = this.#domain(projectId, name);
    if (!found.ok) return found;
    const { project, domain } = found.value;
    if (project.redirects.some((redirect) => redirect.from === domain.name))
      return refuse('primary_is_redirected', `${domain.name} redirects elsewhere; remove that redirect first`);
    project.primary = domain.name;
    this.#log('domain.primary', domain.name, `primary domain of ${project.id}`);
    return { ok: true, value: project };
  }

  /** Adds `{from, to, status}`: both attached, status 301, and no loops or chains. */
  addRedirect(projectId: string, input: Redirect): Outcome<Project> {
    const from = this.#domain(projectId, input.from);
    if (!from.ok) return from;
    const to = this.#domain(projectId, input.to);
    if (!to.ok) return to;
    const project = from.value.project;
    const [source, target] = [from.value.domain.name, to.value.domain.name];
    if (input.status !== 301)
      return refuse(
        'unsupported_redirect_status',
        `redirect status ${input.status} is not supported; the documented status is 301`,
      );
    if (source === target) return refuse('redirect_loop', `${source} cannot redirect to itself`);
    if (project.primary === source)
      return refuse('primary_cannot_redirect', `${source} is the primary domain; choose another primary first`);
    if (project.redirects.some((redirect) => redirect.from === source))
      return refuse('redirect_exists', `${source} already redirects`);
    if (project.redirects.some((redirect) => redirect.from === target && redirect.to === source))
      return refuse('redirect_loop', `${target} already redirects to ${source}`);
    if (project.redirects.some((redirect) => redirect.from === target || redirect.to === source))
      return refuse('redirect_chain', `redirects may not chain: ${source} → ${target} would join another redirect`);
    project.redirects.push({ from: source, to: target, status: 301 });
    this.#log('domain.redirect', source, `redirects to ${target} (301)`);
    return { ok: true, value: project };
  }

  removeRedirect(projectId: string, from: string): Outcome<Project> {
    const found = this.#domain(projectId, from);
    if (!found.ok) return found;
    const project = found.value.project;
    const before = project.redirects.length;
    project.redirects = project.redirects.filter((redirect) => redirect.from !== found.value.domain.name);
    return before === project.redirects.length
      ? refuse('redirect_not_found', `${from} has no redirect`)
      : { ok: true, value: project };
  }

  // --- DNS at the providers ---------------------------------------------------------------------

  addZone(apex: string, providerId: string): Outcome<string> {
    const provider = this.#providers.get(providerId);
    if (!provider)
      return refuse(
        'unknown_provider',
        `no DNS provider ${providerId}; known: ${[...this.#providers.keys()].join(', ')}`,
      );
    const checked = checkName(apex);
    if (!checked.ok) return refuse('invalid_name', checked.reason);
    if (isWithin(checked.name, this.platform.domain))
      return refuse('platform_domain', `${checked.name} is the platform's own zone`);
    const zones = this.world.zones();
    if (!zones.some((zone) => zone.apex === checked.name) && zones.length - 1 >= WORLD_LIMITS.zones)
      return refuse('zone_limit', `the world holds at most ${WORLD_LIMITS.zones} zones; reset it to start again`);
    this.world.addZone(checked.name, provider);
    this.#log('dns.zone', checked.name, `zone hosted at ${provider.name}`);
    return { ok: true, value: checked.name };
  }

  /** The refusal for a user's write at `name` when it lies in the platform's own zone. */
  #platformZone(name: string): { ok: false; code: string; message: string } | undefined {
    if (!isWithin(name, this.platform.domain)) return undefined;
    return {
      ok: false,
      code: 'platform_zone',
      message: `${name} is in the platform's own zone (${this.platform.domain}); only the platform edits its records`,
    };
  }

  /** A user saves a record at their DNS provider (never in the platform's own zone). */
  addRecord(input: NewRecord): ZoneChange {
    const checked = checkRecordName(input.name);
    if (!checked.ok) return { ok: false, code: 'invalid_name', message: checked.reason };
    const platform = this.#platformZone(checked.name);
    if (platform) return platform;
    if (this.world.recordCount() >= WORLD_LIMITS.records)
      return {
        ok: false,
        code: 'record_limit',
        message: `the world holds at most ${WORLD_LIMITS.records} DNS records; remove some first`,
      };
    const change = this.world.addRecord({ ...input, name: checked.name }, this.now);
    if (change.ok)
      this.#log(
        'dns.record_added',
        checked.name,
        `${input.type} record saved; answered from ${new Date(change.record.visibleAt).toISOString()}`,
        { id: change.record.id },
      );
    return change;
  }

  /**
   * A user removes matching records at their DNS provider: gone from its dashboard at once,
   * answered by its name servers until the publish delay has passed. Refused in the platform's zone.
   */
  removeRecords(match: { name: string; type?: NewRecord['type']; data?: unknown }): Outcome<ZoneRecord[]> {
    const checked = checkRecordName(match.name);
    if (!checked.ok) return refuse('invalid_name', checked.reason);
    const platform = this.#platformZone(checked.name);
    if (platform) return platform;
    const removed = this.world.removeRecords({ ...match, name: checked.name }, this.now);
    if (removed.length === 0) return refuse('record_not_found', `no matching record at ${checked.name}`);
    const until = Math.max(...removed.map((record) => record.goneAt!));
    this.#log(
      'dns.record_removed',
      checked.name,
      `${removed.length} record(s) removed; answered until ${new Date(until).toISOString()}`,
    );
    return { ok: true, value: removed };
  }

  /** A question to a resolver now (as `dig @resolver` would ask), recorded in the query log only. */
  query(resolverId: string, name: string, type: QueryType, options: LookupOptions = {}): Outcome<ResolvedAnswer> {
    if (!this.resolvers.has(resolverId))
      return refuse('unknown_resolver', `no resolver ${resolverId}; known: ${[...this.resolvers.keys()].join(', ')}`);
    const checked = checkName(name);
    const normalized = checked.ok ? checked.name : name.toLowerCase().replace(/\.$/, '');
    return { ok: true, value: this.#resolve(resolverId, normalized, type, 'query', options) };
  }

  #resolve(resolverId: string, name: string, type: QueryType, by: string, options: LookupOptions = {}): ResolvedAnswer {
    const answer = this.resolvers.get(resolverId)!.lookup(name, type, this.now, options);
    const { rcode, fromCache } = answer;
    const at = this.now;
    this.queryLog.add({ at, resolver: resolverId, name, type, rcode, fromCache, answers: answer.answers.length });
    // Questions through query() (dig, the control API, one per packet the live DNS server answers)
    // stay out of the history, or a busy client would push the world's events out of it.
    if (by === 'query') return answer;
    this.#log(
      'dns.query',
      name,
      `${by} asked ${resolverId} ${type} ${name}: ${answer.rcode}${answer.fromCache ? ' (cached)' : ''}`,
      { resolver: resolverId, type, rcode: answer.rcode, fromCache: answer.fromCache, answers: answer.answers.length },
    );
    return answer;
  }

  // --- serving ----------------------------------------------------------------------------------

  serve(request: ServeRequest): ServeResult {
    const result = serve(this.projects.values(), request, this.platform.domain);
    if (this.gateLost !== 'stop-serving' || result.kind === 'not-found') return result;
    const host = request.host.toLowerCase().replace(/\.$/, '');
    const project = [...this.projects.values()].find((candidate) => candidate.domains.has(host));
    const gate = project ? this.#gate(project) : undefined;
    if (!gate || gate.ok) return result;
    return {
      kind: 'not-found',
      status: 404,
      reason: gate.code as 'plan_required' | 'no_successful_deploy',
      message: `${host} is not served: ${gate.message}`,
    };
  }

  #log(kind: string, subject: string | undefined, summary: string, detail?: Record<string, unknown>): void {
    this.history.add({ at: this.now, kind, subject, summary, ...(detail ? { detail } : {}) });
  }
}
