import type { ErrorObject } from 'ajv';

/** Raw ajv errors of `value` against the schema at `pointer` (in the same compiled document). */
export type BranchValidator = (pointer: string, value: unknown) => ErrorObject[];

/** Compositions pruned per validated value at most: past it, the rest keep every branch's complaint. */
const MAX_PRUNED = 200;

/** The value at an ajv instance path (`/items/0/name`: JSON pointer tokens, not URI-encoded). */
function instanceAt(value: unknown, path: string): unknown {
  if (path === '') return value;
  let node = value;
  for (const raw of path.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

function prefixed(errors: readonly ErrorObject[], prefix: string): ErrorObject[] {
  return errors.map((error) => ({ ...error, instancePath: `${prefix}${error.instancePath}` }));
}

/**
 * How far a value is from a branch, compared in order: the value is not even of the branch's type;
 * how many `const`/`enum` it breaks (a discriminating property naming another branch); how many
 * errors in all.
 */
function distance(errors: readonly ErrorObject[]): number[] {
  const kindMismatch = errors.some((error) => error.keyword === 'type' && error.instancePath === '');
  const marks = errors.filter((error) => error.keyword === 'const' || error.keyword === 'enum').length;
  return [Number(kindMismatch), marks, errors.length];
}

/** True when `candidate` is strictly closer than `closest` (the first branch wins ties). */
function farther(closest: readonly ErrorObject[], candidate: readonly ErrorObject[]): boolean {
  const a = distance(closest);
  const b = distance(candidate);
  const differing = a.findIndex((value, index) => value !== b[index]);
  return differing >= 0 && b[differing]! < a[differing]!;
}

/**
 * ajv reports a failed `anyOf`/`oneOf` with the complaints of every branch before it; a person
 * wants the branch the value was closest to. Each composition whose schema has a known pointer
 * is replaced by the errors of its closest branch (`distance`: the one whose discriminating
 * `const`/`enum` the value meets, else the fewest errors; each branch validated on its own,
 * nested compositions pruned the same way); when branches pass (a `oneOf` matching two), by the
 * composition's own error. ajv evaluates a composition's branches in a row, just before its own
 * error, so the errors it replaces are exactly as many as the branches give on their own; when
 * the counts disagree the errors are kept as they are.
 */
export function closestBranches(
  errors: readonly ErrorObject[],
  value: unknown,
  pointerOf: (schema: unknown) => string | undefined,
  validate: BranchValidator,
  budget = { left: MAX_PRUNED },
): ErrorObject[] {
  const out = [...errors];
  for (let index = out.length - 1; index >= 0; index -= 1) {
    const error = out[index]!;
    if ((error.keyword !== 'anyOf' && error.keyword !== 'oneOf') || !Array.isArray(error.schema)) continue;
    const pointer = pointerOf(error.parentSchema);
    if (pointer === undefined || budget.left <= 0) continue;
    budget.left -= 1;
    const part = instanceAt(value, error.instancePath);
    const branches = error.schema.map((_, at) => validate(`${pointer}/${error.keyword}/${at}`, part));
    const count = branches.reduce((sum, branch) => sum + branch.length, 0);
    if (count > index || branches.length === 0) continue;
    const pruned = branches.map((branch) => closestBranches(branch, part, pointerOf, validate, budget));
    const best = pruned.reduce((closest, branch) => (farther(closest, branch) ? branch : closest));
    const replacement = best.length === 0 ? [error] : prefixed(best, error.instancePath);
    out.splice(index - count, count + 1, ...replacement);
    index -= count;
  }
  return out;
}
