import path from 'node:path';
import { ToolError } from '../../core/tool-error.js';
import { createCertificateAuthority, type CertificateAuthority, type IssuedCertificate } from './certificates.js';
import type { DnsLookup } from '../sim/dns-types.js';
import type { DomainSimulator } from '../sim/domain-service.js';
import { PUBLIC_RESOLVER, WORLD_LIMITS } from '../sim/domain-service.js';
import { ScenarioPlayer, type StepResult } from '../scenario/scenario.js';
import { loadScenarioFile, SCENARIO_DIR } from '../scenario/scenario-file.js';
import { buildSimulator, type WorldConfig } from '../sim/world-config.js';
import type { DomainState } from '../sim/model.js';

const HOUR = 3_600_000;
/** Domains whose minted certificate is kept: a renewal or a reset replaces one, so memory stays bounded. */
export const MINTED_KEPT = 2 * WORLD_LIMITS.domainsPerProject;

/** Outcome of loading a scenario into the live world. */
export type ScenarioLoadResult =
  | { ok: true; played: StepResult[]; passed: boolean; description: string }
  | { ok: false; code: string; message: string };

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

  #fresh(firstRecordId?: number): DomainSimulator {
    const built = buildSimulator(
      this.config,
      { zones: this.config.live?.zones ?? [] },
      { start: this.startedAt, firstRecordId },
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
    this.#simulator = this.#fresh(this.#simulator.world.nextRecordId);
  }

  /**
   * Replaces the world with a scenario's, played up to and including the step named `upTo`. It
   * awaits the file before the swap: run it through `exclusive` when other requests may write.
   */
  async loadScenario(name: string, upTo?: string): Promise<ScenarioLoadResult> {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
      return { ok: false, code: 'scenario_not_found', message: `no scenario named ${JSON.stringify(name)}` };
    let scenario;
    try {
      scenario = await loadScenarioFile(path.join(this.scenarioDir, `${name}.yaml`));
    } catch (error) {
      const missing = error instanceof ToolError && /ENOENT/.test(error.message);
      return {
        ok: false,
        code: missing ? 'scenario_not_found' : 'invalid_scenario',
        message: missing ? `no scenario named ${name}` : (error as Error).message,
      };
    }
    if (upTo !== undefined && !scenario.steps.some((step) => step.name === upTo)) {
      return {
        ok: false,
        code: 'step_not_found',
        message: `scenario ${name} has no step named ${JSON.stringify(upTo)}; named steps: ${scenario.steps.flatMap((step) => (step.name ? [step.name] : [])).join(', ') || 'none'}`,
      };
    }
    const player = new ScenarioPlayer(scenario, this.config, {
      start: this.startedAt,
      firstRecordId: this.#simulator.world.nextRecordId,
    });
    const played: StepResult[] = [];
    while (!player.done) {
      const result = player.step();
      played.push(result);
      if (upTo !== undefined && result.name === upTo) break;
    }
    this.#simulator = player.simulator;
    return {
      ok: true,
      played,
      passed: player.setupProblems.length === 0 && played.every((step) => step.passed),
      description: scenario.description,
    };
  }

  /** The DNS the real DNS server answers with: the public resolver at the current virtual time. */
  readonly lookup: DnsLookup = (name, type) => {
    const answer = this.#simulator.query(PUBLIC_RESOLVER, name, type);
    return answer.ok ? answer.value : { rcode: 'SERVFAIL', answers: [], authority: [] };
  };

  /** The attached domain `name` with an issued certificate, if any. */
  issuedDomain(name: string): DomainState | undefined {
    const domain = this.#simulator.projects.get(this.projectId)?.domains.get(name.toLowerCase());
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
    const certificate = this.ca.issue(issued.domains, {
      notBefore: new Date(Math.min(issued.notBefore, realNow) - HOUR),
      notAfter: new Date(Math.max(issued.notAfter, realNow + 24 * HOUR)),
    });
    this.#minted.delete(domain.name);
    this.#minted.set(domain.name, { serialNumber: issued.serialNumber, certificate });
    if (this.#minted.size > MINTED_KEPT) this.#minted.delete(this.#minted.keys().next().value!);
    return certificate;
  }
}
