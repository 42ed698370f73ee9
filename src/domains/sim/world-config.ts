import { MAX_DURATION_MS } from '../../core/duration.js';
import { RECORD_TYPES, type QueryType, type RecordType } from './dns-types.js';
import { MAX_TTL } from './dns-zones.js';
import { DomainSimulator, LATEST_INSTANT } from './domain-service.js';
import { GATE_LOST, type GateLost } from './project-registry.js';
import { PLANS, type Plan, type Platform } from './model.js';
import { checkName } from './names.js';
import { providerProblem, type ProviderProfile } from './providers.js';
import { checkRecordData } from './record-data.js';
import { LETS_ENCRYPT_POLICY, type CaPolicy } from './ca-policy.js';
import { DNSSEC_STATES, type DnssecState } from './dnssec.js';

/** The default world (fixtures/world.json): platform, DNS providers, the project, time and seed. */
export interface WorldConfig {
  /** Virtual start, ISO 8601. */
  start: string;
  seed: number;
  platform: Platform;
  providers: ProviderProfile[];
  project: { id: string; plan: Plan; deployed: boolean };
  /** Rule 1 after the fact: what a project's verified domains do when it loses the gate (default keep-serving). */
  gateLost?: GateLost;
  /** What the live world of `kennel serve` starts from. */
  live?: { zones?: NonNullable<Given['zones']> };
  /** The CA's rate limits and identifier policy; absent: Let's Encrypt's (docs/domains-realism.md). */
  ca?: Partial<CaPolicy>;
}

export interface GivenRecord {
  name: string;
  type: RecordType;
  value: unknown;
  ttl?: number;
}

/** What a scenario starts from, on top of the default world. */
export interface Given {
  plan?: Plan;
  deployed?: boolean;
  /** Overrides the world's gateLost for this scenario. */
  gateLost?: GateLost;
  /** Overrides parts of the world's CA policy for this scenario. */
  ca?: Partial<CaPolicy>;
  zones?: {
    apex: string;
    provider: string;
    records?: GivenRecord[];
    failing?: (QueryType | '*')[];
    /** The zone's DNSSEC state (default unsigned). */
    dnssec?: DnssecState;
  }[];
  /** Projects that already own domains (for "domain already claimed"). */
  otherProjects?: { id: string; domains?: string[] }[];
}

/** A problem of a world file's content, located by JSON pointer. */
export interface WorldProblem {
  pointer: string;
  message: string;
}

/** Checks one value; says what it must be, or undefined when it is fine. */
type Check = (value: unknown) => string | undefined;

const DAY = 86_400_000;
/** Retries per window (and renewal attempts per renewal period) a world may schedule: keeps advance() bounded. */
const MAX_ATTEMPTS = 10_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const own = (value: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(value, key) ? value[key] : undefined;

const integerIn =
  (min: number, max: number): Check =>
  (value) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? undefined
      : `must be an integer from ${min} to ${max}`;
const text: Check = (value) => (typeof value === 'string' && value !== '' ? undefined : 'must be a non-empty string');
const boolean: Check = (value) => (typeof value === 'boolean' ? undefined : 'must be true or false');
const oneOf =
  (allowed: readonly string[]): Check =>
  (value) =>
    allowed.includes(value as string) ? undefined : `must be one of: ${allowed.join(', ')}`;
const hostName: Check = (value) => {
  if (typeof value !== 'string') return 'must be a host name';
  const checked = checkName(value);
  return checked.ok ? undefined : `must be a host name: ${checked.reason}`;
};
const address =
  (type: 'A' | 'AAAA'): Check =>
  (value) =>
    checkRecordData(type, value).ok ? undefined : `must be an ${type === 'A' ? 'IPv4' : 'IPv6'} address`;
const instant: Check = (value) => {
  const at = typeof value === 'string' ? Date.parse(value) : NaN;
  return at >= 0 && at <= LATEST_INSTANT - MAX_DURATION_MS
    ? undefined
    : `must be an ISO 8601 time from 1970 to ${new Date(LATEST_INSTANT - MAX_DURATION_MS).getUTCFullYear()}`;
};
/** Durations in ms; intervals at least a second, so the clock always moves between attempts. */
const duration = integerIn(0, MAX_DURATION_MS);
const interval = integerIn(1000, MAX_DURATION_MS);

const PLATFORM: Record<keyof Platform, Check> = {
  domain: hostName,
  addresses: (value) => list(value, address('A'), 1),
  addressesV6: (value) => list(value, address('AAAA'), 0),
  recordTtl: integerIn(1, MAX_TTL),
  caIdentity: text,
  caAccountUri: text,
  validationMethod: text,
  issuanceDelayMs: (value) =>
    Array.isArray(value) &&
    value.length === 2 &&
    !duration(value[0]) &&
    !duration(value[1]) &&
    Math.ceil(value[0] / 1000) <= Math.floor(value[1] / 1000)
      ? undefined
      : 'must be [low, high] in ms with low <= high and a whole second between them',
  certificateTimeoutMs: interval,
  retryIntervalMs: interval,
  retryWindowMs: interval,
  certificateLifetimeMs: interval,
  renewBeforeMs: duration,
  renewalRetryIntervalMs: interval,
};

const rateLimit: Check = (value) => {
  if (value === null) return undefined;
  if (!isObject(value)) return 'must be {count, periodMs} or null (no limit)';
  return integerIn(1, 1_000_000)(own(value, 'count')) ?? interval(own(value, 'periodMs'));
};
const CA_POLICY: Record<keyof CaPolicy, Check> = {
  duplicateCertificates: rateLimit,
  certificatesPerRegisteredDomain: rateLimit,
  rejectReservedLabels: boolean,
};

/** A CA policy (all fields optional; unknown ones refused, so a typo is not a silent default). */
export function caPolicyProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'must be an object';
  for (const [key, field] of Object.entries(value)) {
    if (key === 'comment') continue;
    const check = CA_POLICY[key as keyof CaPolicy];
    if (!check) return `has an unknown field ${key} (known: ${Object.keys(CA_POLICY).join(', ')})`;
    const problem = check(field);
    if (problem) return `field ${key} ${problem}`;
  }
  return undefined;
}

function list(value: unknown, item: Check, min: number): string | undefined {
  if (!Array.isArray(value) || value.length < min)
    return min > 0 ? `must be a list of at least ${min}` : 'must be a list';
  const bad = value.findIndex((entry) => item(entry) !== undefined);
  return bad < 0 ? undefined : `[${bad}] ${item(value[bad])}`;
}

/** `/platform/addresses` → `platform.addresses`: a field as messages name it. */
const dotted = (pointer: string): string => pointer.slice(1).replaceAll('/', '.') || 'the world';

function fieldProblems(value: unknown, at: string, checks: Record<string, Check>): WorldProblem[] {
  if (!isObject(value)) return [{ pointer: at, message: `${dotted(at)} must be an object` }];
  return Object.entries(checks).flatMap(([key, check]) => {
    const message = check(own(value, key));
    return message ? [{ pointer: `${at}/${key}`, message: `${dotted(`${at}/${key}`)} ${message}` }] : [];
  });
}

/** How the platform's times relate: renewal comes after issuance, and retries are bounded in number. */
function timingProblems(platform: Platform): WorldProblem[] {
  const problems: WorldProblem[] = [];
  const at = (key: string, message: string) =>
    problems.push({ pointer: `/platform/${key}`, message: `platform.${key} ${message}` });
  if (platform.certificateLifetimeMs - platform.renewBeforeMs < DAY)
    at('renewBeforeMs', 'must be at least a day shorter than certificateLifetimeMs');
  if (platform.retryWindowMs / platform.retryIntervalMs > MAX_ATTEMPTS)
    at('retryIntervalMs', `must allow at most ${MAX_ATTEMPTS} retries in retryWindowMs`);
  if (platform.renewBeforeMs / platform.renewalRetryIntervalMs > MAX_ATTEMPTS)
    at('renewalRetryIntervalMs', `must allow at most ${MAX_ATTEMPTS} renewal attempts in renewBeforeMs`);
  return problems;
}

function providerProblems(value: unknown): WorldProblem[] {
  if (!Array.isArray(value) || value.length === 0)
    return [{ pointer: '/providers', message: 'providers must be a non-empty list' }];
  const seen = new Set<unknown>();
  return value.flatMap((provider: unknown, index) => {
    const at = `/providers/${index}`;
    const fields = fieldProblems(provider, at, {
      name: text,
      publishDelayMs: duration,
      negativeTtl: integerIn(0, MAX_TTL),
      defaultTtl: integerIn(1, MAX_TTL),
    });
    if (fields.length > 0) return fields;
    const problem = providerProblem(provider as Partial<ProviderProfile>);
    if (problem) return [{ pointer: at, message: `providers: ${problem}` }];
    const id = (provider as ProviderProfile).id;
    if (seen.has(id)) return [{ pointer: `${at}/id`, message: `providers: ${id} is listed twice` }];
    seen.add(id);
    return [];
  });
}

const ZONE: Record<string, Check> = {
  apex: text,
  provider: text,
  records: (value) =>
    value === undefined
      ? undefined
      : list(
          value,
          (record) => (fieldProblems(record, '', RECORD).length > 0 ? 'must be {name, type, value, ttl?}' : undefined),
          0,
        ),
  failing: (value) => (value === undefined ? undefined : list(value, oneOf([...RECORD_TYPES, '*']), 0)),
  dnssec: (value) => (value === undefined ? undefined : oneOf(DNSSEC_STATES)(value)),
};
const RECORD: Record<string, Check> = {
  name: text,
  type: oneOf(RECORD_TYPES),
  ttl: (value) => (value === undefined ? undefined : integerIn(1, MAX_TTL)(value)),
};

function liveProblems(world: WorldConfig): WorldProblem[] {
  const live: unknown = own(world as unknown as Record<string, unknown>, 'live');
  if (live === undefined) return [];
  if (!isObject(live)) return [{ pointer: '/live', message: 'live must be an object' }];
  const zones = own(live, 'zones');
  if (zones === undefined) return [];
  if (!Array.isArray(zones)) return [{ pointer: '/live/zones', message: 'live.zones must be a list' }];
  const shapes = zones.flatMap((zone: unknown, index) => fieldProblems(zone, `/live/zones/${index}`, ZONE));
  if (shapes.length > 0) return shapes;
  // What only the simulator knows (providers, names, CNAME conflicts, limits), told by building it.
  const built = buildSimulator(world, { zones: zones as NonNullable<Given['zones']> });
  return built.problems.map((message) => ({ pointer: '/live/zones', message: `live.zones: ${message}` }));
}

/**
 * Problems of a world file's content, each located and naming the field: everything the
 * simulator relies on, so that a world that loads never fails later (no crash, no endless
 * retry loop, no date beyond what ISO 8601 can say).
 */
export function worldProblems(world: unknown): WorldProblem[] {
  const top = fieldProblems(world, '', {
    start: instant,
    seed: integerIn(0, 2 ** 31 - 1),
    platform: (value) => (isObject(value) ? undefined : 'must be an object'),
    project: (value) => (isObject(value) ? undefined : 'must be an object'),
    gateLost: (value) => (value === undefined ? undefined : oneOf(GATE_LOST)(value)),
    ca: (value) => (value === undefined ? undefined : caPolicyProblem(value)),
  });
  if (top.length > 0) return top;
  const config = world as WorldConfig;
  const platform = fieldProblems(config.platform, '/platform', PLATFORM);
  const project = fieldProblems(config.project, '/project', {
    id: (value) =>
      typeof value === 'string' && /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(value)
        ? undefined
        : 'must be a DNS label (lower-case letters, digits, inner hyphens)',
    plan: oneOf(PLANS),
    deployed: boolean,
  });
  const shapes = [...platform, ...project, ...providerProblems(own(world as Record<string, unknown>, 'providers'))];
  if (shapes.length > 0) return shapes;
  return [...timingProblems(config.platform), ...liveProblems(config)];
}

/** Where a simulator starts: its clock, its first record id and where serials come from. */
export interface SimulatorOrigin {
  start?: number;
  firstRecordId?: number;
  serialNumber?: () => string;
}

/**
 * A simulator for `given` in `world`: the project, the zones with their records already published
 * (they predate the scenario), other projects with their domains attached, and failing zones.
 */
export function buildSimulator(
  world: WorldConfig,
  given: Given = {},
  options: SimulatorOrigin = {},
): { simulator: DomainSimulator; problems: string[] } {
  const start = options.start ?? Date.parse(world.start);
  const simulator = new DomainSimulator({
    platform: world.platform,
    providers: world.providers,
    start,
    seed: world.seed,
    firstRecordId: options.firstRecordId,
    gateLost: given.gateLost ?? world.gateLost,
    ...(options.serialNumber ? { serialNumber: options.serialNumber } : {}),
    caPolicy: { ...LETS_ENCRYPT_POLICY, ...world.ca, ...given.ca },
  });
  simulator.addProject({
    id: world.project.id,
    plan: given.plan ?? world.project.plan,
    deployed: given.deployed ?? world.project.deployed,
  });
  const problems: string[] = [];
  for (const zone of given.zones ?? []) {
    const added = simulator.addZone(zone.apex, zone.provider);
    if (!added.ok) {
      problems.push(`zone ${zone.apex}: ${added.message}`);
      continue;
    }
    for (const record of zone.records ?? []) {
      const saved = simulator.addRecord({
        name: record.name,
        type: record.type,
        data: record.value,
        ttl: record.ttl,
        published: true,
      });
      if (!saved.ok) problems.push(`record ${record.type} ${record.name}: ${saved.message}`);
    }
    if (zone.failing) simulator.setZoneFailing(added.value, zone.failing);
    if (zone.dnssec) simulator.setZoneDnssec(added.value, zone.dnssec);
  }
  for (const other of given.otherProjects ?? []) {
    simulator.addProject({ id: other.id, plan: 'pro', deployed: true });
    for (const domain of other.domains ?? []) {
      const attached = simulator.addDomain(other.id, domain);
      if (!attached.ok) problems.push(`other project ${other.id}: ${attached.message}`);
    }
  }
  return { simulator, problems };
}
