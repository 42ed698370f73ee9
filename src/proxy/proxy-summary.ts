import type { Violation } from '../mock/respond/violation.js';

/** What was seen of one operation (or of requests the document does not describe). */
interface OperationTally {
  exchanges: number;
  broken: number;
  rules: Map<string, number>;
}

/** The label for requests that match no operation of the document. */
export const NOT_IN_DOCUMENT = '(not in the document)';

/** Counts exchanges and violations per operation and per rule, for the summary printed at exit. */
export class ProxyTally {
  readonly #operations = new Map<string, OperationTally>();
  readonly #rules = new Map<string, { count: number; severity: Violation['severity'] }>();
  #exchanges = 0;
  #broken = 0;

  /** Records one exchange of `operation` (an operation id, or NOT_IN_DOCUMENT) and its violations. */
  record(operation: string, violations: readonly Violation[]): void {
    const tally = this.#operations.get(operation) ?? { exchanges: 0, broken: 0, rules: new Map<string, number>() };
    this.#operations.set(operation, tally);
    this.#exchanges += 1;
    tally.exchanges += 1;
    if (violations.length === 0) return;
    this.#broken += 1;
    tally.broken += 1;
    for (const violation of violations) {
      tally.rules.set(violation.rule, (tally.rules.get(violation.rule) ?? 0) + 1);
      const rule = this.#rules.get(violation.rule) ?? { count: 0, severity: violation.severity };
      rule.count += 1;
      if (violation.severity === 'error') rule.severity = 'error';
      this.#rules.set(violation.rule, rule);
    }
  }

  get exchanges(): number {
    return this.#exchanges;
  }

  /** Exchanges with at least one violation. */
  get broken(): number {
    return this.#broken;
  }

  /** The summary as JSON-ready data (the admin API and tests read it). */
  toJSON(): {
    exchanges: number;
    broken: number;
    operations: Record<string, { exchanges: number; broken: number; rules: Record<string, number> }>;
    rules: Record<string, { count: number; severity: Violation['severity'] }>;
  } {
    return {
      exchanges: this.#exchanges,
      broken: this.#broken,
      operations: Object.fromEntries(
        [...this.#operations].map(([name, tally]) => [
          name,
          { exchanges: tally.exchanges, broken: tally.broken, rules: Object.fromEntries(tally.rules) },
        ]),
      ),
      rules: Object.fromEntries([...this.#rules].map(([name, rule]) => [name, { ...rule }])),
    };
  }

  /** The lines printed when kennel stops: totals, then counts per operation and per rule. */
  summaryText(upstream: string): string {
    const lines = [
      `kennel: proxy summary for ${upstream}: ${this.#exchanges} exchange${this.#exchanges === 1 ? '' : 's'}, ${this.#broken} broke the document`,
    ];
    if (this.#broken === 0) return `${lines[0]}\n`;
    lines.push('  by operation (exchanges with violations / exchanges: rules)');
    const operations = [...this.#operations]
      .filter(([, tally]) => tally.broken > 0)
      .sort((a, b) => b[1].broken - a[1].broken);
    const width = Math.max(...operations.map(([name]) => name.length));
    for (const [name, tally] of operations) {
      const rules = [...tally.rules].map(([rule, count]) => `${rule} ×${count}`).join(', ');
      lines.push(`    ${name.padEnd(width)}  ${tally.broken}/${tally.exchanges}: ${rules}`);
    }
    lines.push('  by rule (violations)');
    const rules = [...this.#rules].sort((a, b) => b[1].count - a[1].count);
    const ruleWidth = Math.max(...rules.map(([name]) => name.length));
    for (const [name, rule] of rules) lines.push(`    ${name.padEnd(ruleWidth)}  ${rule.count} (${rule.severity})`);
    return `${lines.join('\n')}\n`;
  }
}
