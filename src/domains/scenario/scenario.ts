import type { Rcode } from '../sim/dns-types.js';
import type { DomainSimulator } from '../sim/domain-service.js';
import type { CertificateState, DnsState, RequiredRecord } from '../sim/model.js';
import { buildSimulator, type Given, type SimulatorOrigin, type WorldConfig } from '../sim/world-config.js';
import { describeAction, performAction, type Action } from './actions/index.js';
import { judge } from './scenario-expectations.js';

/** What a step expects; every key given must hold. */
export interface Expectation {
  /** `ok`, or the refusal code the action must get. */
  outcome?: string;
  /** Records the dashboard must show after add-domain. */
  records?: Partial<RequiredRecord>[];
  domain?: {
    dns?: DnsState;
    reason?: string;
    certificate?: CertificateState;
    certificateReason?: string;
    lastError?: string;
    retryWithin?: string;
    attached?: boolean;
    /** The issued certificate's serial, hex as the timeline shows it (case-insensitive). */
    serial?: string;
    /** The serial is the one the domain had at the named step (a renewal that did not happen, a move). */
    sameSerialAs?: string;
    /** The serial differs from the one the domain had at the named step (renewed or re-issued). */
    newSerialSince?: string;
  };
  dns?: {
    rcode?: Rcode;
    answers?: string[];
    includes?: string[];
    withTtl?: string[];
    cached?: boolean;
    /** AD: the resolver validated the whole answer as secure. */
    authenticated?: boolean;
  };
  served?: {
    status?: number;
    location?: string;
    reason?: string;
    project?: string;
    tls?: 'ok' | 'no_certificate';
    cause?: string;
    /** Headers the platform wrote, by name (case-insensitive), each value exactly. */
    headers?: Record<string, string>;
    /** The method a client following the redirect sends (307/308 keep it; 301/302 turn POST into GET). */
    followedWith?: string;
  };
  /** Either reading holds: each entry is a whole expectation. */
  anyOf?: Expectation[];
}

export interface Step {
  /** Label, also the target of "load up to step". */
  name?: string;
  /** Line of the step in its file, for failure messages. */
  line?: number;
  action: Action;
  expect?: Expectation;
}

export interface Scenario {
  name: string;
  description: string;
  file?: string;
  /** Rules of section 1 ("Documentation site publishing") this scenario exercises. */
  rules: number[];
  tags: string[];
  given: Given;
  steps: Step[];
}

export interface StepResult {
  index: number;
  name?: string;
  line?: number;
  /** Virtual time since the scenario's start. */
  offsetMs: number;
  action: string;
  observed: string;
  passed: boolean;
  failures: string[];
}

export interface ScenarioResult {
  name: string;
  description: string;
  file?: string;
  passed: boolean;
  /** Problems with the scenario's `given` (a record the provider refused…), which fail it. */
  setupProblems: string[];
  steps: StepResult[];
  /** Virtual time the scenario spans. */
  spanMs: number;
}

/** A scenario being played step by step (the live world can stop at a named step). */
export class ScenarioPlayer {
  readonly simulator: DomainSimulator;
  readonly setupProblems: string[];
  readonly #start: number;
  readonly #project: string;
  /** The serial each named step saw on the domain it observed: what sameSerialAs/newSerialSince compare with. */
  readonly #serials = new Map<string, string | undefined>();
  #next = 0;

  constructor(
    readonly scenario: Scenario,
    world: WorldConfig,
    options: SimulatorOrigin = {},
  ) {
    const built = buildSimulator(world, scenario.given, options);
    this.simulator = built.simulator;
    this.setupProblems = built.problems;
    this.#start = built.simulator.now;
    this.#project = world.project.id;
  }

  get done(): boolean {
    return this.#next >= this.scenario.steps.length;
  }

  /** Plays the next step and judges its expectations. */
  step(): StepResult {
    const index = this.#next++;
    const step = this.scenario.steps[index]!;
    const observed = performAction({ simulator: this.simulator, project: this.#project }, step.action);
    const failures = judge(step.expect, observed, this.simulator, (name) => this.#serials.get(name));
    if (step.name !== undefined && observed.domain)
      this.#serials.set(step.name, observed.domain.certificate.issued?.serialNumber);
    // A refusal nobody expected fails its step: a scenario never carries on past one unnoticed.
    if (!observed.outcome.ok && step.expect?.outcome === undefined)
      failures.unshift(
        `refused: ${observed.outcome.code} (${observed.outcome.message}); expect outcome: ${observed.outcome.code} if that is the story`,
      );
    return {
      index,
      name: step.name,
      line: step.line,
      offsetMs: this.simulator.now - this.#start,
      action: describeAction(step.action),
      observed: observed.text,
      passed: failures.length === 0,
      failures,
    };
  }
}

/** Plays a whole scenario on a virtual clock. */
export function runScenario(scenario: Scenario, world: WorldConfig): ScenarioResult {
  const player = new ScenarioPlayer(scenario, world);
  const steps: StepResult[] = [];
  while (!player.done) steps.push(player.step());
  const passed = player.setupProblems.length === 0 && steps.every((step) => step.passed);
  return {
    name: scenario.name,
    description: scenario.description,
    file: scenario.file,
    passed,
    setupProblems: player.setupProblems,
    steps,
    spanMs: steps.at(-1)?.offsetMs ?? 0,
  };
}
