/** Values equal as JSON, with integers compared exactly (bigint vs number). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const x = exactInteger(a);
    return x !== undefined && x === exactInteger(b);
  }
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
    );
  }
  return a === b;
}

function exactInteger(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined;
}
