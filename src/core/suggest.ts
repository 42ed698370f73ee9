/** Edit distance (insertions, deletions, substitutions, transpositions) between two short names. */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1)
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  return rows[a.length]![b.length]!;
}

/**
 * The known names closest to a mistyped `name`, for "did you mean": within a third of its length
 * in edits (at least 1), or containing it / contained in it; best first, at most three.
 */
export function closestNames(name: string, known: readonly string[]): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  return known
    .map((candidate) => ({ candidate, edits: distance(wanted, candidate.toLowerCase()) }))
    .filter(
      ({ candidate, edits }) =>
        edits <= limit ||
        (wanted.length >= 4 && candidate.toLowerCase().includes(wanted)) ||
        wanted.includes(candidate.toLowerCase()),
    )
    .sort((a, b) => a.edits - b.edits || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}
