// The one table of hostile HTTP families and the seeded generator over it. A plan is small (family,
// variant, seed); its bytes are built only when it is sent, so thousands of multi-megabyte requests
// never sit in memory together, and `--seed N` rebuilds exactly the same requests.
import { AUTH_FAMILIES } from './hostile-auth.js';
import { preview, rawRequest } from './hostile-build.js';
import { FRAMING_FAMILIES } from './hostile-framing.js';
import { HEADER_FAMILIES } from './hostile-headers.js';
import { JSON_FAMILIES } from './hostile-json.js';
import { Prng } from './prng.js';

/** Every family, in the order the suite sends them (the world's clock last: it may break the world). */
export const FAMILIES = [
  ...JSON_FAMILIES.filter((family) => family.family !== 'world-durations'),
  ...FRAMING_FAMILIES,
  ...HEADER_FAMILIES,
  ...AUTH_FAMILIES,
  ...JSON_FAMILIES.filter((family) => family.family === 'world-durations'),
];

/**
 * At least `count` plans: every variant of every family once, then weighted random picks. `only`
 * (family names) narrows the table. Plans come grouped by family, in table order.
 */
export function planCases({ seed, count, only }) {
  const families = only ? FAMILIES.filter((family) => only.includes(family.family)) : FAMILIES;
  if (families.length === 0) throw new Error(`no hostile family matches ${only.join(', ')}`);
  const rng = new Prng(seed);
  const plans = new Map(families.map((family) => [family.family, []]));
  for (const family of families)
    family.variants.forEach((_, variant) =>
      plans.get(family.family).push({ family: family.family, variant, seed: rng.next32() }),
    );
  const totalWeight = families.reduce((sum, family) => sum + family.weight, 0);
  let planned = [...plans.values()].reduce((sum, list) => sum + list.length, 0);
  for (; planned < count; planned += 1) {
    let draw = rng.float() * totalWeight;
    const family = families.find((candidate) => (draw -= candidate.weight) < 0) ?? families.at(-1);
    plans
      .get(family.family)
      .push({ family: family.family, variant: rng.int(0, family.variants.length - 1), seed: rng.next32() });
  }
  return families.map((family) => ({ family: family.family, plans: plans.get(family.family) }));
}

/** Builds a plan's request: {family, name, method, target, chunks, expect, framing, head, check, extraMs, summary, repro}. */
export function materialise(plan, ctx) {
  const family = FAMILIES.find((candidate) => candidate.family === plan.family);
  const spec = family.variants[plan.variant](new Prng(plan.seed), ctx);
  const chunks = spec.chunks ?? [{ data: rawRequest(ctx, spec) }];
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.data.length, 0);
  return {
    family: plan.family,
    name: spec.name,
    method: spec.method ?? 'GET',
    target: spec.target ?? '',
    chunks,
    bytes,
    expect: spec.expect ?? 'any',
    framing: spec.framing ?? 'ok',
    head: spec.head ?? false,
    check: spec.check,
    extraMs: spec.extraMs ?? 0,
    summary: `${String(spec.method ?? '').slice(0, 20)} ${preview(Buffer.from(String(spec.target ?? ''), 'latin1'), 80)}: ${spec.name}`,
    repro: reproLine(chunks, bytes, ctx),
  };
}

/**
 * A bash line replaying a small request over /dev/tcp (credentials as $KEY and $ADMIN, the port as
 * $PORT), else undefined.
 */
function reproLine(chunks, bytes, ctx) {
  if (bytes > 600 || chunks.length > 1) return undefined;
  const escaped = chunks[0].data.toString('latin1').replace(/[\\%']|[^\x20-\x7e]/g, (character) => {
    if (character === '%') return '%%';
    if (character === '\\') return '\\\\';
    if (character === '\r') return '\\r';
    if (character === '\n') return '\\n';
    return `\\${character.charCodeAt(0).toString(8).padStart(3, '0')}`;
  });
  const format = escaped
    .split(ctx.admin)
    .join(`'"$ADMIN"'`)
    .split(ctx.key)
    .join(`'"$KEY"'`)
    .split(ctx.hostPort)
    .join(`127.0.0.1:'"$PORT"'`);
  return `(exec 3<>/dev/tcp/127.0.0.1/$PORT; printf '${format}' >&3; timeout 3 cat <&3)`;
}
