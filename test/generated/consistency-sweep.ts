import { generateDocument } from './document-generator.js';
import { checkGenerated, patternOf, type Kennel, type SeedOutcome } from './consistency-harness.js';
import type { Feature, OasVersion } from './features.js';

/** One kind of disagreement (a check and a title pattern), with the seeds that show it. */
export interface DisagreementGroup {
  key: string;
  /** An example title, unmasked. */
  example: string;
  operations: Set<string>;
  seeds: number[];
  /** The smallest document found that shows it. */
  smallest: { seed: number; version: OasVersion; features: Feature[] };
}

export interface SweepOptions {
  seeds: readonly number[];
  features: readonly Feature[];
  versions?: readonly OasVersion[];
  directory: string;
  /** Called after each seed (progress). */
  onSeed?: (outcome: SeedOutcome) => void;
}

export interface SweepResult {
  outcomes: SeedOutcome[];
  groups: DisagreementGroup[];
}

/** The groups an outcome belongs to: each crash, invalid document and error finding, by rule. */
export function groupKeysOf(outcome: SeedOutcome): Map<string, { example: string; operation: string }> {
  const keys = new Map<string, { example: string; operation: string }>();
  if (outcome.invalidDocument)
    keys.set(`invalid document | ${patternOf(outcome.invalidDocument)}`, {
      example: outcome.invalidDocument,
      operation: '-',
    });
  for (const crash of outcome.crashes)
    keys.set(`crash | ${patternOf(crash)}`, { example: crash, operation: crash.split(':')[0]! });
  for (const found of outcome.disagreements)
    if (!keys.has(`${found.check} | ${found.pattern}`))
      keys.set(`${found.check} | ${found.pattern}`, { example: found.title, operation: found.operation });
  return keys;
}

/** Serves and checks one document per seed; groups what disagrees, each with its smallest document. */
export async function sweep(kennel: Kennel, options: SweepOptions): Promise<SweepResult> {
  const outcomes: SeedOutcome[] = [];
  const groups = new Map<string, DisagreementGroup>();
  for (const seed of options.seeds) {
    const generated = generateDocument(seed, { features: options.features, versions: options.versions });
    const outcome = await checkGenerated(kennel, generated, options.directory);
    outcomes.push(outcome);
    options.onSeed?.(outcome);
    for (const [key, { example, operation }] of groupKeysOf(outcome)) {
      const smallest = { seed, version: generated.version, features: generated.features };
      const group = groups.get(key) ?? { key, example, operations: new Set<string>(), seeds: [], smallest };
      group.seeds.push(seed);
      group.operations.add(operation);
      if (generated.features.length < group.smallest.features.length) group.smallest = smallest;
      groups.set(key, group);
    }
  }
  return { outcomes, groups: [...groups.values()].sort((a, b) => b.seeds.length - a.seeds.length) };
}

/** Outcomes by document (seed, version, features): groups shrinking from one seed share their runs. */
export type OutcomeCache = Map<string, Promise<SeedOutcome>>;

/**
 * Switches the smallest document's features off one at a time, keeping each switch that leaves
 * the disagreement in place: what remains is what it needs. At most `budget` runs.
 */
export async function shrink(
  kennel: Kennel,
  group: DisagreementGroup,
  directory: string,
  cache: OutcomeCache = new Map(),
  budget = 40,
): Promise<void> {
  let { features } = group.smallest;
  const { seed, version } = group.smallest;
  for (const feature of [...features]) {
    if (budget-- <= 0) break;
    const candidate = features.filter((kept) => kept !== feature);
    const key = `${seed}|${version}|${candidate.join()}`;
    let outcome = cache.get(key);
    if (!outcome) {
      outcome = checkGenerated(kennel, generateDocument(seed, { features: candidate, versions: [version] }), directory);
      cache.set(key, outcome);
    }
    const settled = await outcome;
    if (groupKeysOf(settled).has(group.key)) features = settled.generated.features;
  }
  group.smallest = { seed, version, features };
}

/** The one command that shows a group's smallest document again. */
export function reproduction(group: DisagreementGroup): string {
  const { seed, version, features } = group.smallest;
  return `npm run bench:consistency -- --seed ${seed} --version ${version} --features ${features.join(',') || 'none'}`;
}
