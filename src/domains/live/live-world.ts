import { ToolError } from '../../core/tool-error.js';
import {
  createCertificateAuthority,
  randomSerial,
  type CertificateAuthority,
  type IssuedCertificate,
} from './certificates.js';
import type { DnsAnswer, DnsLookup, LookupOptions, QueryType } from '../sim/dns-types.js';
import type { DomainSimulator } from '../sim/domain-service.js';
import { PLATFORM_RESOLVER, PUBLIC_RESOLVER } from '../sim/resolvers.js';
import type { Scenario } from '../scenario/scenario.js';
import { SCENARIO_DIR } from '../scenario/scenario-file.js';
import {
  playScenario,
  readNamedScenario,
  readScenarioSummaries,
  readScenarioText,
  type PlayLimit,
  type ScenarioLoadResult,
  type ScenarioSummary,
} from './live-scenarios.js';
import { buildSimulator, type WorldConfig } from '../sim/world-config.js';
import { WORLD_LIMITS, type CertificateStatus, type DomainState, type Outcome } from '../sim/model.js';

const HOUR = 3_600_000;
/** Domains whose minted certificate is kept: a renewal or a reset replaces one, so memory stays bounded. */
export const MINTED_KEPT = 2 * WORLD_LIMITS.domainsPerProject;

/**
 * The simulator as `kennel serve` runs it: one world at a time (reset or replaced by a scenario),
 * a real certificate authority that mints X.509 certificates for what the simulator issued, and
 * DNS answers for the real DNS server. Virtual time starts at the real time, so minted
 * certificates are valid for real TLS clients.
 */
export class LiveWorld {
  #simulator: DomainSimulator;
  /** The latest mint per domain name (insertion order is age), at most MINTED_KEPT of them. */
  readonly #minted = new Map<string, { serialNumber: string; certificate: Promise<IssuedCertificate> }>();
  /** Settles when every task handed to `exclusive` so far has finished. */
  #idle: Promise<unknown> = Promise.resolve();
  #revision = 0;
  #summaries: Promise<ScenarioSummary[]> | undefined;

  private constructor(
    readonly config: WorldConfig,
    readonly ca: CertificateAuthority,
    readonly startedAt: number,
    private readonly scenarioDir: string,
  ) {
    this.#simulator = this.#fresh();
  }

  /** Builds the live world; `now` is the real time it starts at. */
  static async start(config: WorldConfig, options: { now: number; scenarioDir?: string }): Promise<LiveWorld> {
    const ca = await createCertificateAuthority({
      name: 'kennel simulator root',
      now: new Date(options.now - 24 * HOUR),
    });
    return new LiveWorld(config, ca, options.now, options.scenarioDir ?? SCENARIO_DIR);
  }

  get simulator(): DomainSimulator {
    return this.#simulator;
  }

  get projectId(): string {
    return this.config.project.id;
  }

  /** Grows whenever the world may have changed: the dashboard polls it to know when to reload. */
  get revision(): number {
    return this.#revision;
  }

  /** Notes a change (a write, a DNS question) so that pollers of `revision` see it. */
  touch(): void {
    this.#revision += 1;
  }

  #fresh(firstRecordId?: number): DomainSimulator {
    const built = buildSimulator(
      this.config,
      { zones: this.config.live?.zones ?? [] },
      { start: this.startedAt, firstRecordId, serialNumber: randomSerial },
    );
    if (built.problems.length > 0) throw new ToolError(`the live world cannot start: ${built.problems[0]}`);
    return built.simulator;
  }

  /**
   * Runs `task` alone, after every task queued before it has finished (failed ones included): the
   * control API passes each request through here, so a scenario load that awaits its file swaps
   * the world before any later write, never on top of it.
   */
  exclusive<T>(task: () => T | Promise<T>): Promise<T> {
    const run = this.#idle.then(() => task());
    this.#idle = run.catch(() => undefined);
    return run;
  }

  /** Back to the default live world; record ids keep counting, so old ids never point at new records. */
  reset(): void {
    this.#simulator = this.#fresh(this.#simulator.zones.nextRecordId);
    this.touch();
  }

  /** The bundled scenarios (read once: they ship with the package and do not change while serving). */
  scenarioSummaries(): Promise<ScenarioSummary[]> {
    this.#summaries ??= readScenarioSummaries(this.scenarioDir);
    this.#summaries.catch(() => (this.#summaries = undefined));
    return this.#summaries;
  }

  /**
   * Replaces the world with a scenario's, played up to and including the step named `upTo`. It
   * awaits the file before the swap: run it through `exclusive` when other requests may write.
   */
  async loadScenario(name: string, limit: PlayLimit = {}): Promise<ScenarioLoadResult> {
    const read = await readNamedScenario(this.scenarioDir, name);
    return read.ok ? this.#play(read.scenario, limit) : read;
  }

  /**
   * Replaces the world with a QA engineer's own scenario, given as YAML or JSON text and validated
   * as a file is (problems name `source:line`), played up to the step named `upTo`.
   */
  async loadScenarioText(source: string, name: string, limit: PlayLimit = {}): Promise<ScenarioLoadResult> {
    const read = await readScenarioText(source, name);
    return read.ok ? this.#play(read.scenario, limit) : read;
  }

  #play(scenario: Scenario, limit: PlayLimit): ScenarioLoadResult {
    const origin = {
      start: this.startedAt,
      firstRecordId: this.#simulator.zones.nextRecordId,
      serialNumber: randomSerial,
    };
    const { result, simulator } = playScenario(scenario, this.config, origin, limit);
    if (simulator) {
      this.#simulator = simulator;
      this.touch();
    }
    return result;
  }

  /**
   * When the next thing is due in the world: a certificate attempt, time-out, renewal or expiry (the
   * simulator's schedule), or a saved record that a provider starts answering with. Cache expiries
   * are not events.
   */
  nextEventAt(): { at: number; kind: 'certificate' | 'record' } | undefined {
    const now = this.#simulator.now;
    const certificate = this.#simulator.nextEventAt();
    let record = Infinity;
    for (const zone of this.#simulator.zones.list())
      for (const saved of this.#simulator.zones.saved(zone))
        if (saved.visibleAt > now) record = Math.min(record, saved.visibleAt);
    if (certificate === undefined && record === Infinity) return undefined;
    return certificate !== undefined && certificate <= record
      ? { at: certificate, kind: 'certificate' }
      : { at: record, kind: 'record' };
  }

  /** Moves the clock to the next event (see `nextEventAt`) and carries it out; refused when nothing is scheduled. */
  advanceToNextEvent(): Outcome<{ movedMs: number; event: 'certificate' | 'record' }> {
    const next = this.nextEventAt();
    if (!next)
      return {
        ok: false,
        code: 'nothing_scheduled',
        message: 'nothing is scheduled: no certificate is being issued or renewed, and every saved record is published',
      };
    const before = this.#simulator.now;
    const moved = this.#simulator.advance(next.at - before);
    return moved.ok ? { ok: true, value: { movedMs: this.#simulator.now - before, event: next.kind } } : moved;
  }

  /**
   * Moves the clock event by event until the certificate of the attached domain `name` is issued, or
   * until nothing more is scheduled for it (it failed, or it waits for Verify). Refused, with the clock
   * unmoved, when the certificate is neither issued nor being issued.
   */
  advanceUntilIssued(name: string): Outcome<{ movedMs: number; certificate: CertificateStatus }> {
    const domain = () => this.#simulator.domain(this.projectId, name);
    if (!domain())
      return { ok: false, code: 'domain_not_found', message: `${name} is not attached to project ${this.projectId}` };
    const waiting = (state: string) => state === 'pending' || state === 'timed_out';
    const first = domain()!.certificate;
    if (first.state !== 'issued' && !waiting(first.state))
      return {
        ok: false,
        code: 'certificate_not_pending',
        message: `no certificate is being issued for ${name} (${first.state}: ${first.reason}); Verify or Re-verify starts issuance`,
      };
    const before = this.#simulator.now;
    // Each pass carries out at least one due event; the cap only guards against a schedule that never advances.
    for (
      let current = domain(), passes = 0;
      current && waiting(current.certificate.state) && passes < 100_000;
      current = domain(), passes += 1
    ) {
      const next = this.#simulator.nextEventAt();
      if (next === undefined) break;
      const moved = this.#simulator.advance(next - this.#simulator.now);
      if (!moved.ok) return moved;
    }
    const last = domain();
    return {
      ok: true,
      value: { movedMs: this.#simulator.now - before, certificate: (last ?? { certificate: first }).certificate },
    };
  }

  /** Empties the caches of every resolver (platform and public); returns how many answers each held. */
  flushCaches(): { resolver: string; entries: number }[] {
    return this.#simulator.flushCaches();
  }

  #platformCertificate: Promise<IssuedCertificate> | undefined;

  /**
   * The platform's default certificate (`*.<platform domain>` and the domain itself), which the site
   * presents for a name that has none, as real platforms do: clients see a name mismatch.
   */
  platformCertificate(): Promise<IssuedCertificate> {
    const domain = this.config.platform.domain;
    this.#platformCertificate ??= this.ca.issue([`*.${domain}`, domain], {
      notBefore: new Date(this.startedAt - 24 * HOUR),
      notAfter: new Date(this.startedAt + 397 * 24 * HOUR),
    });
    return this.#platformCertificate;
  }

  /** The DNS the real DNS server answers with: the public resolver at the current virtual time. */
  readonly lookup: DnsLookup = (name, type, options) => this.#ask(PUBLIC_RESOLVER, name, type, options);

  /** What the platform's verifier and CA see: the platform resolver (`--platform-dns-port`). */
  readonly platformLookup: DnsLookup = (name, type, options) => this.#ask(PLATFORM_RESOLVER, name, type, options);

  #ask(resolver: string, name: string, type: QueryType, options?: LookupOptions): DnsAnswer {
    this.touch();
    const answer = this.#simulator.query(resolver, name, type, options);
    return answer.ok ? answer.value : { rcode: 'SERVFAIL', answers: [], authority: [] };
  }

  /** The attached domain `name` with an issued certificate, if any. */
  issuedDomain(name: string): Readonly<DomainState> | undefined {
    const domain = this.#simulator.domain(this.projectId, name);
    return domain?.certificate.state === 'issued' ? domain : undefined;
  }

  /**
   * The real certificate for what the simulator issued to `name`, minted once per serial (only the
   * latest serial of a name is kept). Its
   * validity starts before the real time, so a clock advanced by days still yields certificates
   * real TLS clients accept.
   */
  async certificateFor(name: string, realNow: number): Promise<IssuedCertificate | undefined> {
    const domain = this.issuedDomain(name);
    const issued = domain?.certificate.issued;
    if (!issued) return undefined;
    const kept = this.#minted.get(domain.name);
    if (kept?.serialNumber === issued.serialNumber) return kept.certificate;
    const certificate = this.ca.issue(
      issued.domains,
      {
        notBefore: new Date(Math.min(issued.notBefore, realNow) - HOUR),
        notAfter: new Date(Math.max(issued.notAfter, realNow + 24 * HOUR)),
      },
      issued.serialNumber,
    );
    this.#minted.delete(domain.name);
    this.#minted.set(domain.name, { serialNumber: issued.serialNumber, certificate });
    if (this.#minted.size > MINTED_KEPT) this.#minted.delete(this.#minted.keys().next().value!);
    return certificate;
  }
}
