import type { QueryType, RecordType } from './dns-types.js';
import { DomainSimulator } from './domain-service.js';
import type { Plan, Platform } from './model.js';
import { providerProblem, type ProviderProfile } from './providers.js';

/** The default world (fixtures/world.json): platform, DNS providers, the project, time and seed. */
export interface WorldConfig {
  /** Virtual start, ISO 8601. */
  start: string;
  seed: number;
  platform: Platform;
  providers: ProviderProfile[];
  project: { id: string; plan: Plan; deployed: boolean };
  /** What the live world of `kennel serve` starts from. */
  live?: { zones?: NonNullable<Given['zones']> };
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
  zones?: { apex: string; provider: string; records?: GivenRecord[]; failing?: (QueryType | '*')[] }[];
  /** Projects that already own domains (for "domain already claimed"). */
  otherProjects?: { id: string; domains?: string[] }[];
}

/** Problems of a world file's content, each naming the field. */
export function worldProblems(world: WorldConfig): string[] {
  const problems: string[] = [];
  if (Number.isNaN(Date.parse(world.start)))
    problems.push(`start ${JSON.stringify(world.start)} is not an ISO 8601 time`);
  for (const provider of world.providers ?? []) {
    const problem = providerProblem(provider);
    if (problem) problems.push(`providers: ${problem}`);
  }
  return problems;
}

/**
 * A simulator for `given` in `world`: the project, the zones with their records already published
 * (they predate the scenario), other projects with their domains attached, and failing zones.
 */
export function buildSimulator(
  world: WorldConfig,
  given: Given = {},
  options: { start?: number; firstRecordId?: number } = {},
): { simulator: DomainSimulator; problems: string[] } {
  const start = options.start ?? Date.parse(world.start);
  const simulator = new DomainSimulator({
    platform: world.platform,
    providers: world.providers,
    start,
    seed: world.seed,
    firstRecordId: options.firstRecordId,
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
    if (zone.failing) simulator.world.setFailing(added.value, zone.failing);
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
