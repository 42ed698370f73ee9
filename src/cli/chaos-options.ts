import { readFile, stat } from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { readInstant } from '../core/instant.js';
import { ToolError } from '../core/tool-error.js';
import { readChaosSettings } from '../mock/chaos/chaos-rules.js';
import { describeRule } from '../mock/chaos/chaos-setup.js';
import { faultFlag, latencyFlag, type SyntaxRead } from '../mock/chaos/chaos-syntax.js';
import type { ChaosRule, ChaosSettings } from '../mock/chaos/chaos-types.js';
import type { MockConfig } from '../mock/config.js';
import { AFTER_SUNSET, type AfterSunset } from '../mock/time/after-sunset.js';
import { parseYamlSource } from '../openapi/yaml-source.js';
import type { CliIo } from './io.js';
import { oneOf } from './options.js';

/** The flags of `kennel serve` for chaos and virtual time. */
export interface ChaosFlags {
  chaos?: string;
  latency?: ChaosRule[];
  fault?: ChaosRule[];
  now?: number;
  afterSunset?: AfterSunset;
}

/** Largest chaos file read. */
const MAX_CHAOS_FILE_BYTES = 1024 * 1024;

function ruleCollector(read: (text: string) => SyntaxRead<ChaosRule>) {
  return (value: string, previous: ChaosRule[] = []): ChaosRule[] => {
    const rule = read(value);
    if (!rule.ok) throw new InvalidArgumentError(rule.reason);
    return [...previous, rule.value];
  };
}

function instantArgument(value: string): number {
  const instant = readInstant(value);
  if (!instant.ok) throw new InvalidArgumentError(instant.reason);
  return instant.ms;
}

/** Declares `--chaos`, `--latency`, `--fault`, `--now` and `--after-sunset` on `serve`. */
export function chaosOptions(command: Command): Command {
  return command
    .option('--chaos <file>', 'chaos table (YAML or JSON): delays and faults per operation (docs/chaos.md)')
    .option(
      '--latency <delay>',
      'add a delay, repeatable: [OPERATION:]DELAY[:PROBABILITY], DELAY = 200ms, 100-300ms, normal:200ms:50ms, exponential:100ms',
      ruleCollector(latencyFlag),
    )
    .option(
      '--fault <fault>',
      'inject a fault, repeatable: [OPERATION:]FAULT[:PROBABILITY], FAULT = reset, timeout[:HOLD], malformed, 503, rate-limit:10/1s',
      ruleCollector(faultFlag),
    )
    .option(
      '--now <instant>',
      "the mock's virtual now, e.g. 2030-12-06 (env KENNEL_NOW; default: the real clock)",
      instantArgument,
    )
    .option(
      '--after-sunset <mode>',
      'a deprecated operation past its x-sunset: gone (410 Gone) or keep (answer as before); default gone',
      oneOf(AFTER_SUNSET),
    );
}

/** Reads a chaos file; every problem is a ToolError naming file:line and the JSON pointer. */
export async function loadChaosFile(file: string): Promise<ChaosSettings> {
  let text: string;
  try {
    if ((await stat(file)).size > MAX_CHAOS_FILE_BYTES)
      throw new ToolError(`is larger than ${MAX_CHAOS_FILE_BYTES / 1024}kb; a chaos table is a few rules`, file);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      `cannot read the chaos file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      file,
    );
  }
  const parsed = parseYamlSource(text);
  if (!parsed.ok) throw new ToolError(`invalid YAML: ${parsed.message}`, `${file}:${parsed.line}:${parsed.column}`);
  const read = readChaosSettings(parsed.source.value ?? {});
  if (!read.ok)
    throw new ToolError(`${read.pointer || '/'}: ${read.reason}`, `${file}:${parsed.source.lineOf(read.pointer) ?? 1}`);
  return read.settings;
}

function envNow(env: CliIo['env']): number | undefined {
  const raw = env.KENNEL_NOW;
  if (raw === undefined || raw === '') return undefined;
  const instant = readInstant(raw);
  if (!instant.ok) throw new ToolError(`KENNEL_NOW: ${instant.reason}`);
  return instant.ms;
}

/**
 * Chaos and the virtual now shape the mock's own answers; in proxy mode the deployment answers, so
 * asking for them there is refused rather than shown in the banner and silently not applied.
 */
function refuseUnderProxy(flags: ChaosFlags, env: CliIo['env'], proxy: string | undefined): void {
  if (proxy === undefined) return;
  const asked = (
    [
      ['--chaos', flags.chaos],
      ['--latency', flags.latency],
      ['--fault', flags.fault],
      ['--now', flags.now],
      ['KENNEL_NOW', env.KENNEL_NOW || undefined],
      ['--after-sunset', flags.afterSunset],
    ] as const
  ).filter(([, value]) => value !== undefined);
  if (asked.length === 0) return;
  const names = asked.map(([name]) => name).join(', ');
  throw new ToolError(
    `${names}: chaos and the virtual now act on the mock's own answers, not with --proxy (the deployment answers; docs/chaos.md)`,
  );
}

/** Chaos (file rules first, then --latency, then --fault) and time, flags before the environment. */
export async function resolveChaosConfig(
  flags: ChaosFlags,
  env: CliIo['env'],
  proxy?: string,
): Promise<Pick<MockConfig, 'chaos' | 'now' | 'afterSunset'>> {
  refuseUnderProxy(flags, env, proxy);
  const file = flags.chaos === undefined ? { rules: [] } : await loadChaosFile(flags.chaos);
  const rules = [...file.rules, ...(flags.latency ?? []), ...(flags.fault ?? [])];
  return {
    chaos: { ...file, rules },
    now: flags.now ?? envNow(env),
    afterSunset: flags.afterSunset ?? 'gone',
  };
}

/** Banner lines for chaos and a virtual now; none when both are off. */
export function chaosBannerLines(config: MockConfig, origin: string): string[] {
  const lines: string[] = [];
  const rules = config.chaos?.rules ?? [];
  if (rules.length > 0) {
    const seed = config.chaos?.seed ?? config.seed;
    lines.push(
      `  chaos    ${rules.length} rule${rules.length === 1 ? '' : 's'}, seed ${seed}  (${origin}/__kennel/chaos)`,
    );
    for (const rule of rules.slice(0, 5)) lines.push(`             ${describeRule(rule)}`);
    if (rules.length > 5) lines.push(`             … and ${rules.length - 5} more`);
  }
  if (config.now !== undefined)
    lines.push(
      `  now      ${new Date(config.now).toISOString()} (virtual, running; ${origin}/__kennel/now), past a sunset: ${config.afterSunset ?? 'gone'}`,
    );
  return lines;
}
