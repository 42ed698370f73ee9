import { describeSeconds } from '../../core/duration.js';
import type { QueryType, Rcode, RecordType, ResourceRecord } from '../sim/dns-types.js';
import type { DomainSimulator } from '../sim/domain-service.js';
import type { CertificateState, DnsState, DomainState, Outcome, Plan, RequiredRecord } from '../sim/model.js';
import { checkName } from '../sim/names.js';
import { recordText } from '../sim/record-data.js';
import { judge } from './scenario-expectations.js';
import type { ServeResult } from '../sim/site.js';
import { buildSimulator, type Given, type GivenRecord, type WorldConfig } from '../sim/world-config.js';

/** One user, DNS or clock action of a scenario. */
export type Action =
  | { kind: 'add-domain' | 'verify' | 'reverify' | 'remove-domain' | 'set-primary' | 'check'; domain: string }
  | { kind: 'add-record'; record: GivenRecord }
  | { kind: 'remove-record'; name: string; type?: RecordType; value?: unknown }
  | { kind: 'advance'; ms: number; text: string }
  | { kind: 'dig'; name: string; type: QueryType; resolver: string }
  | { kind: 'serve'; host: string; path: string; scheme: 'http' | 'https' }
  | { kind: 'set-plan'; plan: Plan }
  | { kind: 'set-deployed'; deployed: boolean }
  | { kind: 'add-redirect'; from: string; to: string; status: number }
  | { kind: 'remove-redirect'; from: string }
  | { kind: 'fail-dns'; zone: string; types: (QueryType | '*')[] }
  | { kind: 'heal-dns'; zone: string };

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
  };
  dns?: { rcode?: Rcode; answers?: string[]; includes?: string[]; cached?: boolean };
  served?: { status?: number; location?: string; reason?: string; tls?: 'ok' | 'no_certificate' };
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

/** What an action produced, for expectations and the timeline. */
export interface Observation {
  outcome: Outcome<unknown> | { ok: true; value?: unknown };
  records?: RequiredRecord[];
  domain?: DomainState;
  dns?: { rcode: Rcode; answers: ResourceRecord[]; fromCache: boolean };
  served?: ServeResult;
  text: string;
}

export function describeAction(action: Action): string {
  switch (action.kind) {
    case 'add-record':
      return `add-record ${action.record.type} ${action.record.name} → ${typeof action.record.value === 'string' ? action.record.value : JSON.stringify(action.record.value)}`;
    case 'remove-record':
      return `remove-record ${action.type ?? '*'} ${action.name}`;
    case 'advance':
      return `advance ${action.text}`;
    case 'dig':
      return `dig @${action.resolver} ${action.name} ${action.type}`;
    case 'serve':
      return `serve ${action.scheme}://${action.host}${action.path}`;
    case 'set-plan':
      return `set-plan ${action.plan}`;
    case 'set-deployed':
      return `set-deployed ${action.deployed}`;
    case 'add-redirect':
      return `add-redirect ${action.from} → ${action.to} (${action.status})`;
    case 'remove-redirect':
      return `remove-redirect ${action.from}`;
    case 'fail-dns':
      return `fail-dns ${action.zone} ${action.types.join(',')}`;
    case 'heal-dns':
      return `heal-dns ${action.zone}`;
    default:
      return `${action.kind} ${action.domain}`;
  }
}

function domainText(domain: DomainState, now: number): string {
  const dns = `dns ${domain.dns.state} (${domain.dns.reason})`;
  const certificate = `certificate ${domain.certificate.state}${domain.certificate.state === 'none' ? '' : ` (${domain.certificate.lastError && domain.certificate.state !== 'issued' ? domain.certificate.lastError.reason : domain.certificate.reason})`}`;
  const retry =
    domain.dns.evidence.retryAt !== undefined && domain.dns.state === 'pending'
      ? `, retry in ${describeSeconds(Math.max(0, Math.round((domain.dns.evidence.retryAt - now) / 1000)))}`
      : '';
  return `${dns}${retry}; ${certificate}`;
}

function servedText(result: ServeResult): string {
  if (result.kind === 'redirect') return `${result.status} → ${result.location}`;
  if (result.kind === 'page') return `200 site of ${result.project}`;
  if (result.kind === 'tls-error') return `TLS error: ${result.reason}`;
  return `404 ${result.reason}`;
}

function refusalText(outcome: Outcome<unknown>): string {
  return outcome.ok ? 'ok' : `refused: ${outcome.code} (${outcome.message})`;
}

function domainOf(simulator: DomainSimulator, project: string, name: string): DomainState | undefined {
  const checked = checkName(name);
  return checked.ok ? simulator.projects.get(project)?.domains.get(checked.name) : undefined;
}

/** Carries out one action on the simulator. */
function perform(simulator: DomainSimulator, project: string, action: Action): Observation {
  const now = () => simulator.now;
  switch (action.kind) {
    case 'add-domain': {
      const outcome = simulator.addDomain(project, action.domain);
      if (!outcome.ok) return { outcome, text: refusalText(outcome) };
      const [record] = outcome.value.records;
      return {
        outcome,
        records: outcome.value.records,
        domain: outcome.value.domain,
        text: `show ${record!.type} ${record!.name} → ${record!.value} (TTL ${record!.ttl})`,
      };
    }
    case 'verify':
    case 'reverify': {
      const outcome = simulator.verify(project, action.domain, { reverify: action.kind === 'reverify' });
      return outcome.ok
        ? { outcome, domain: outcome.value, text: domainText(outcome.value, now()) }
        : { outcome, text: refusalText(outcome) };
    }
    case 'check': {
      const domain = domainOf(simulator, project, action.domain);
      return { outcome: { ok: true }, domain, text: domain ? domainText(domain, now()) : 'not attached' };
    }
    case 'remove-domain': {
      const outcome = simulator.removeDomain(project, action.domain);
      return { outcome, text: outcome.ok ? 'removed' : refusalText(outcome) };
    }
    case 'set-primary': {
      const outcome = simulator.setPrimary(project, action.domain);
      return { outcome, text: outcome.ok ? `primary is ${action.domain}` : refusalText(outcome) };
    }
    case 'add-redirect': {
      const outcome = simulator.addRedirect(project, { from: action.from, to: action.to, status: action.status });
      return { outcome, text: outcome.ok ? 'redirect saved' : refusalText(outcome) };
    }
    case 'remove-redirect': {
      const outcome = simulator.removeRedirect(project, action.from);
      return { outcome, text: outcome.ok ? 'redirect removed' : refusalText(outcome) };
    }
    case 'add-record': {
      const change = simulator.addRecord({
        name: action.record.name,
        type: action.record.type,
        data: action.record.value,
        ttl: action.record.ttl,
      });
      const outcome: Outcome<unknown> = change.ok
        ? { ok: true, value: change.record }
        : { ok: false, code: change.code, message: change.message };
      return {
        outcome,
        text: change.ok
          ? `saved; answered in ${describeSeconds(Math.round((change.record.visibleAt - now()) / 1000))}`
          : refusalText(outcome),
      };
    }
    case 'remove-record': {
      const outcome = simulator.removeRecords({ name: action.name, type: action.type, data: action.value });
      if (!outcome.ok) return { outcome, text: refusalText(outcome) };
      const until = Math.max(...outcome.value.map((record) => record.goneAt ?? now()));
      return {
        outcome,
        text: `removed ${outcome.value.length} record(s); answered for ${describeSeconds(Math.round((until - now()) / 1000))} more`,
      };
    }
    case 'advance':
      simulator.advance(action.ms);
      return { outcome: { ok: true }, text: `clock moved ${action.text}, now ${new Date(now()).toISOString()}` };
    case 'dig': {
      const outcome = simulator.query(action.resolver, action.name, action.type);
      if (!outcome.ok) return { outcome, text: refusalText(outcome) };
      const { rcode, answers, fromCache } = outcome.value;
      return {
        outcome,
        dns: { rcode, answers, fromCache },
        text: `${rcode}${fromCache ? ' (cached)' : ''}${answers.length > 0 ? `: ${answers.map(recordText).join(', ')}` : ''}`,
      };
    }
    case 'serve': {
      const served = simulator.serve({ host: action.host, path: action.path, scheme: action.scheme });
      return { outcome: { ok: true }, served, text: servedText(served) };
    }
    case 'set-plan': {
      const outcome = simulator.setPlan(project, action.plan);
      return { outcome, text: outcome.ok ? `plan ${action.plan}` : refusalText(outcome) };
    }
    case 'set-deployed': {
      const outcome = simulator.setDeployed(project, action.deployed);
      return {
        outcome,
        text: outcome.ok ? (action.deployed ? 'deployed' : 'no successful deploy') : refusalText(outcome),
      };
    }
    case 'fail-dns':
      simulator.world.setFailing(action.zone, action.types);
      return { outcome: { ok: true }, text: `${action.zone} name servers fail ${action.types.join(', ')} queries` };
    case 'heal-dns':
      simulator.world.setFailing(action.zone, []);
      return { outcome: { ok: true }, text: `${action.zone} name servers answer again` };
  }
}

/** A scenario being played step by step (the live world can stop at a named step). */
export class ScenarioPlayer {
  readonly simulator: DomainSimulator;
  readonly setupProblems: string[];
  readonly #start: number;
  readonly #project: string;
  #next = 0;

  constructor(
    readonly scenario: Scenario,
    world: WorldConfig,
    options: { start?: number; firstRecordId?: number } = {},
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
    const observed = perform(this.simulator, this.#project, step.action);
    const failures = judge(step.expect, observed, this.simulator);
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
