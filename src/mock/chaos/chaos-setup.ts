import { ToolError } from '../../core/tool-error.js';
import type { LoadedDocument } from '../../openapi/load.js';
import { unmatchedRule } from './chaos-rules.js';
import { describeFault, describeLatency } from './chaos-syntax.js';
import type { ChaosRule, ChaosSettings } from './chaos-types.js';

/** `getPet: fault reset, 10%`: a rule in words, for the banner and start-up errors. */
export function describeRule(rule: ChaosRule): string {
  const parts: string[] = [];
  if (rule.latency) parts.push(`latency ${describeLatency(rule.latency)}`);
  if (rule.fault) parts.push(`fault ${describeFault(rule.fault)}`);
  if (rule.probability !== 1) parts.push(`${Math.round(rule.probability * 10_000) / 100}%`);
  return `${rule.match}: ${parts.join(', ')}`;
}

/** The configured chaos table, once every rule is known to name an operation of the document. */
export function checkedChaos(settings: ChaosSettings | undefined, document: LoadedDocument): ChaosSettings {
  if (!settings) return { rules: [] };
  const unmatched = unmatchedRule(
    settings,
    document.operations.map((operation) => operation.id),
  );
  if (unmatched)
    throw new ToolError(
      `chaos rule ${unmatched.index + 1} (${describeRule(settings.rules[unmatched.index]!)}): ${unmatched.reason}`,
    );
  return settings;
}
