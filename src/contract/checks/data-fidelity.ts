import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { awaitListed } from './awaited-listing.js';
import { wholeListQuery, type Item } from './list-reads.js';
import { changedFields, fidelityCases, type FidelityCase } from './fidelity-values.js';
import { documentedBodySchema, itemSchemaOf, shownBy } from './shown-properties.js';
import { unexercisedUnlessSuccess } from './unexercised.js';
import type { CheckPlan } from '../prepare/plan.js';
import { rememberCreated } from './created-writes.js';
import { failure, show } from './failure.js';
import { generation, identitiesOf, testDataBody } from './generation.js';
import { createsIdentifiedResources, idKey, idOf } from './ids.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isClientError, isSuccess, refusalSeverity, statusText } from './response-status.js';
import { schemaIssues } from './schema-issues.js';
import { validRequest } from './valid-request.js';

/** One created case and where it came back: the create response, the read by id, the list item. */
interface Stored {
  probe: FidelityCase;
  id: unknown;
  /** `listed`: the body is an item of the exchange's list. */
  places: { place: string; exchange: Exchange; body: unknown; listed?: boolean }[];
}

function refusals(check: string, probe: FidelityCase, exchange: Exchange): CheckFailure[] {
  if (probe.refusal === undefined || !isClientError(exchange)) return [];
  // 409 is a conflict with the target's state (RFC 9110 §15.5.10), not a verdict on the values: a
  // one-shot action (`POST /notes/7/archive`) refuses every body after its first.
  if (exchange.response?.status === 409)
    return [
      failure(
        check,
        'warning',
        exchange,
        `answered 409 (a conflict with the target's state) to a body with ${probe.label}`,
        {
          expected: 'a 2xx: the schema allows these values',
          actual: statusText(exchange),
        },
      ),
    ];
  return [
    failure(check, refusalSeverity(exchange, probe.refusal), exchange, `refused a valid body with ${probe.label}`, {
      expected: 'a 2xx: the schema allows these values',
      actual: statusText(exchange),
    }),
  ];
}

/** The probed properties a place's documented schema shows (a create answering `{id}` shows none). */
function shownAt(
  plan: CheckPlan,
  place: Stored['places'][number],
  sent: Record<string, unknown>,
): Record<string, unknown> {
  const schema = documentedBodySchema(plan, place.exchange);
  const shown = shownBy(place.listed ? itemSchemaOf(schema) : schema);
  return Object.fromEntries(Object.entries(sent).filter(([name, value]) => shown(name, value)));
}

/** The probed properties that differ in any place, as one finding per case. */
function judge(check: string, plan: CheckPlan, stored: Stored): CheckFailure[] {
  const sent = Object.fromEntries(stored.probe.probed.map((name) => [name, stored.probe.value[name]]));
  const differing = stored.places
    .map((place) => {
      const compared = shownAt(plan, place, sent);
      return { ...place, changes: Object.keys(compared).length === 0 ? [] : changedFields(compared, place.body) };
    })
    .filter((place) => place.changes.length > 0);
  if (differing.length === 0) return [];
  const first = differing[0]!;
  return [
    failure(
      check,
      'error',
      first.exchange,
      `${stored.probe.label}: not kept exactly (${differing.map((place) => place.place).join(', ')})`,
      {
        expected: show(sent),
        actual: first.changes.map((change) => `/${change.name}: ${change.change}`).join('; '),
      },
    ),
  ];
}

/** Reads each stored case by id and adds what came back to its places. */
async function readEach(
  context: CheckContext,
  stored: readonly Stored[],
  parents: Record<string, string>,
): Promise<void> {
  const read = context.plan.collection(context.operation.collection!).read;
  if (!read) return;
  await Promise.all(
    stored.map(async (entry) => {
      const exchange = await readById(
        context,
        read,
        entry.id,
        `reading back ${String(entry.id)} (${entry.probe.label})`,
        { parents },
      );
      if (isSuccess(exchange)) entry.places.push({ place: read.id, exchange, body: jsonBody(exchange) });
    }),
  );
}

/** Finds each stored case in the whole list; one missing from a list read whole is a finding. */
async function findEach(
  context: CheckContext,
  stored: readonly Stored[],
  check: string,
  parents: Record<string, string>,
): Promise<CheckFailure[]> {
  const list = context.plan.collection(context.operation.collection!).list;
  const whole = list && wholeListQuery(list);
  if (!list || !whole || !list.idProperty) return [];
  const ids = stored.map((entry) => idKey(entry.id));
  const outcome = await awaitListed(
    context,
    list,
    { query: whole.query, ids },
    `${list.id} to find the created resources`,
    { parents },
  );
  if (!outcome.items) return [];
  const byId = new Map(outcome.items.map((item: Item) => [idKey(idOf(item, list.idProperty!)), item]));
  for (const entry of stored) {
    const item = byId.get(idKey(entry.id));
    if (item) entry.places.push({ place: list.id, exchange: outcome.exchange, body: item, listed: true });
  }
  // Only a list read whole can prove an item absent; how late items appear is list-freshness' finding.
  if (outcome.items.length >= whole.cap || outcome.missing.length === 0) return [];
  return [
    failure(
      check,
      'error',
      outcome.exchange,
      `${outcome.missing.length} created resource(s) never appear in ${list.id}`,
      {
        expected: `items with ${list.idProperty} ${outcome.missing.slice(0, 5).join(', ')}`,
        actual: `${outcome.items.length} items without them (waited ${outcome.waitedMs} ms)`,
      },
    ),
  ];
}

/**
 * A key the client chooses (`slug`), when its schema refused the tricky text, would be the same in
 * every case: each create after the first would name a taken item (409). Each case gets a key of
 * its own: the run's name and a number where the schema takes it, else a generated value not yet used.
 */
function freshIdentities(context: CheckContext, cases: FidelityCase[], identities: readonly string[]): void {
  const { operation, plan, settings } = context;
  const valid = (value: unknown): boolean => schemaIssues(plan, operation.body!.pointer, value, 'request').length === 0;
  const used = new Set<string>();
  cases.forEach((probe, index) => {
    for (const name of identities) {
      if (!(name in probe.value) || probe.probed.includes(name)) continue;
      const candidates = [
        `${settings.namePrefix}-${name}-${index + 1}`,
        ...Array.from({ length: 20 }, () => testDataBody(operation.body!.schema, generation(context))[name]),
      ];
      const fresh = candidates.find((value) => !used.has(show(value)) && valid({ ...probe.value, [name]: value }));
      if (fresh === undefined) continue;
      probe.value[name] = fresh;
      used.add(show(fresh));
    }
  });
}

/**
 * Text in other scripts, emoji, combining marks, markup, backslashes, control characters and long
 * strings, and int64 extremes, come back exactly as sent: in the create response, read by id and listed.
 */
export const dataFidelity: ScenarioCheck = {
  name: 'data-fidelity',
  kind: 'scenario',
  severity: 'error',
  description: 'tricky text and integer extremes are stored, read and listed exactly as sent',
  skipReason(operation, _plan, settings) {
    return createsIdentifiedResources(operation, settings);
  },
  async run(context) {
    const { operation, plan } = context;
    const body = operation.body!;
    const base = testDataBody(body.schema, generation(context));
    const identities = identitiesOf(context);
    const cases = fidelityCases(
      body.schema,
      base,
      context.settings.namePrefix,
      (value) => schemaIssues(plan, body.pointer, value, 'request').length === 0,
      identities,
    ).slice(0, context.settings.maxExamples);
    if (cases.length === 0) return { failures: [], skipped: 'no free-text or int32/int64 property to probe' };
    freshIdentities(context, cases, identities);
    // Parents, required query and headers as a create needs them: read back under the same parents.
    const request = validRequest(context, operation, 'a create');
    const creates = await Promise.all(
      cases.map((probe) =>
        context.send({ ...request, purpose: `creating with ${probe.label}`, body: { value: probe.value } }),
      ),
    );
    const failures: CheckFailure[] = [];
    const stored: Stored[] = [];
    creates.forEach((exchange, index) => {
      const probe = cases[index]!;
      failures.push(...refusals(this.name, probe, exchange));
      if (!isSuccess(exchange)) return;
      rememberCreated(context, probe.value, exchange);
      const returned = jsonBody(exchange);
      const id = operation.idProperty ? idOf(returned, operation.idProperty) : undefined;
      stored.push({ probe, id, places: [{ place: 'create response', exchange, body: returned }] });
    });
    const identified = stored.filter((entry) => entry.id !== undefined);
    await readEach(context, identified, request.pathParams ?? {});
    failures.push(...(await findEach(context, identified, this.name, request.pathParams ?? {})));
    return {
      failures: [...failures, ...stored.flatMap((entry) => judge(this.name, plan, entry))],
      unexercised: unexercisedUnlessSuccess(creates, 'create'),
    };
  },
};
