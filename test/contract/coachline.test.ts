// kennel check explores Coachline (fixtures/explore) like a client: it pages through the stops,
// searches departures between two stops it has seen, books one, reads, confirms and cancels the
// booking. A correct server passes in every shape; each fault is caught by the check it breaks.
import { describe, expect, it } from 'vitest';
import { runContract, type ContractOptions, type RunSummary } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { checkNamedBy, findingTitles, onlyChecks } from './helpers.js';
import {
  COACH_TOKEN,
  COACHLINE_SPECS,
  startCoachline,
  type CoachFault,
  type CoachOptions,
  type CoachShape,
} from './coachline-server.js';

async function check(options: CoachOptions, run: Partial<ContractOptions> = {}): Promise<RunSummary> {
  const server = await startCoachline(options);
  try {
    return await runContract({
      baseUrl: `${server.url}/api`,
      apiKey: COACH_TOKEN,
      specPath: COACHLINE_SPECS[options.shape ?? 'envelope'],
      seed: 5,
      ...run,
    });
  } finally {
    await server.close();
  }
}

/** A full run each, run concurrently: generous, for a loaded machine. */
const RUN_MS = 120_000;

describe.concurrent('a correct Coachline passes', { timeout: RUN_MS }, () => {
  it.each<[CoachShape, CoachOptions['variant']]>([
    ['envelope', undefined],
    ['envelope', 'relative-links'],
    ['envelope', 'omit-null-next'],
    ['wrapped', undefined],
    ['link-header', undefined],
    ['link-header', 'relative-links'],
  ])('%s %s', async (shape, variant) => {
    const summary = await check({ shape, variant });
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(summary.exitCode).toBe(0);
  });
});

// A fault's run has the check its finding names and the producers (helpers.ts): the rows assert
// that check catches it; the correct shapes above run everything, so no check cries wolf.
describe.concurrent('each fault is caught by the check it breaks', { timeout: RUN_MS }, () => {
  it.each<[CoachFault, CoachShape, string]>([
    ['page-repeats', 'envelope', 'pagination-followed listStops: page 2 repeats'],
    ['next-on-last-page', 'envelope', 'pagination-followed listStops: the last page (3) has a next link'],
    ['next-missing', 'envelope', 'pagination-followed listStops: the pages end before the list does'],
    ['page-over-limit', 'envelope', 'pagination-followed listStops: page 1 holds 11 items'],
    ['next-loops', 'envelope', 'pagination-followed listStops: the next link leads back'],
    ['next-broken', 'envelope', 'pagination-followed listStops: the next link of page 1 does not resolve'],
    ['booking-wrong-departure', 'envelope', 'resource-round-trip createBooking: create response differs'],
    ['booking-not-stored', 'envelope', 'resource-round-trip createBooking: created resource'],
    ['cancel-ignored', 'envelope', 'resource-lifecycle createBooking:'],
    ['confirm-crashes', 'envelope', 'not-a-server-error confirmBooking: server error 500'],
    ['fare-as-text', 'envelope', 'response-schema-conformance searchDepartures: 200 body: /data/0/fare/amount'],
    ['unknown-booking-200', 'envelope', 'not-found-conformance getBooking:'],
    ['unknown-departure-422', 'envelope', 'unknown-reference-refused createBooking: answered departure_id'],
    ['page-repeats', 'link-header', 'pagination-followed listStops: page 2 repeats'],
    ['next-on-last-page', 'link-header', 'pagination-followed listStops: the last page (3) has a next link'],
    ['next-missing', 'link-header', 'pagination-followed listStops: the pages end before the list does'],
    ['booking-wrong-departure', 'wrapped', 'resource-round-trip createBooking: create response differs'],
    ['unknown-booking-200', 'wrapped', 'not-found-conformance getBooking:'],
    ['fare-as-text', 'wrapped', 'response-schema-conformance searchDepartures: 200 body: /data/0/fare/amount'],
  ])('%s (%s)', async (fault, shape, title) => {
    const summary = await check({ fault, shape }, onlyChecks(checkNamedBy(title)));
    expect(findingTitles(summary, 'error').join('\n')).toContain(title);
  });
});

describe.concurrent('kennel serve of each Coachline document passes kennel check', { timeout: RUN_MS }, () => {
  it.each(Object.keys(COACHLINE_SPECS) as CoachShape[])('%s', async (shape) => {
    const mock = await startMock({ specPath: COACHLINE_SPECS[shape], apiKeys: [COACH_TOKEN] });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: COACH_TOKEN,
        specPath: COACHLINE_SPECS[shape],
        seed: 5,
      });
      expect(findingTitles(summary, 'error')).toEqual([]);
      expect(summary.coverage?.operations.succeeded).toBe(7);
    } finally {
      await mock.close();
    }
  });
});
