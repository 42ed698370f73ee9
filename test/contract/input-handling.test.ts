import { describe, expect, it } from 'vitest';
import { runContract, type ContractOptions, type RunSummary } from '../../src/contract/run/runner.js';
import { startTestMock } from '../helpers/mock-client.js';
import { onlyChecks } from './helpers.js';
import { BOX_OFFICE_SPEC, startBoxOffice, type BoxOfficeFault } from './box-office-server.js';

const API_KEY = 'box-office-key';

async function checkBoxOffice(faults: BoxOfficeFault[] = [], run: Partial<ContractOptions> = {}): Promise<RunSummary> {
  const server = await startBoxOffice(API_KEY, faults);
  try {
    return await runContract({ baseUrl: server.url, apiKey: API_KEY, specPath: BOX_OFFICE_SPEC, seed: 3, ...run });
  } finally {
    await server.close();
  }
}

function errorsOf(summary: RunSummary): string[] {
  return summary.cases.flatMap((result) =>
    result.failures
      .filter((failure) => failure.severity === 'error')
      .map((failure) => `${result.check} ${result.operationId}: ${failure.title}`),
  );
}

// Inputs a deployment mishandles: filters it ignores (a required text filter, one on a nested
// field), body fields it does not validate (nested, under a oneOf branch, an array sent bare) and
// values it does not keep (fractions, several-item arrays). Each with the check that must show it,
// which its run has with the producers (helpers.ts); the correct server's run has every check.
const FAULTS: [BoxOfficeFault, string, RegExp][] = [
  [
    'city-ignored',
    'filter-honoured',
    /^filter-honoured listHalls: city=\S+ returned \d+ of \d+ items with another address\.city/,
  ],
  [
    'hall-ignored',
    'filter-honoured',
    /^filter-honoured searchShows: hall_id=\S+ returned \d+ of \d+ items with another hall_id/,
  ],
  ['email-unchecked', 'negative-data-rejection', /createBooking: accepted a body where \/guest\/email is not an email/],
  [
    'card-unchecked',
    'negative-data-rejection',
    /payBooking: accepted a body where \/card_number is .*against the pattern/,
  ],
  [
    'dates-bare-accepted',
    'negative-data-rejection',
    /createBooking: accepted a body where \/dates is its item .* alone, not in an array/,
  ],
  ['price-rounded', 'data-fidelity', /createBooking: fractional numbers: not kept exactly/],
  ['dates-truncated', 'data-fidelity', /createBooking: arrays of three items: not kept exactly/],
];

describe('input handling (fixtures/contract/box-office.yaml)', () => {
  it('passes the correct server', async () => {
    const summary = await checkBoxOffice();
    expect(errorsOf(summary)).toEqual([]);
    expect(summary.exitCode).toBe(0);
  });

  it.each(FAULTS)('finds %s with %s', async (fault, check, title) => {
    const summary = await checkBoxOffice([fault], onlyChecks(check));
    const errors = errorsOf(summary).filter((line) => line.startsWith(`${check} `));
    expect(
      errors.some((line) => title.test(line)),
      errorsOf(summary).join('\n'),
    ).toBe(true);
  });

  it('agrees with the mock of the same document, which honours the nested filter', async () => {
    const mock = await startTestMock({ specPath: BOX_OFFICE_SPEC });
    try {
      const all = await mock.request('GET', '/halls');
      const halls = (all.body as { data: { address: { city: string } }[] }).data;
      expect(halls.length).toBeGreaterThan(0);
      const city = halls[0]!.address.city;
      const some = await mock.request('GET', `/halls?city=${encodeURIComponent(city)}`);
      const kept = (some.body as { data: { address: { city: string } }[] }).data;
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.every((hall) => hall.address.city === city)).toBe(true);
      const none = await mock.request('GET', `/halls?city=${encodeURIComponent(`not ${city}`)}`);
      expect((none.body as { data: unknown[] }).data).toEqual([]);
      const summary = await runContract({ baseUrl: mock.url, apiKey: mock.key, specPath: BOX_OFFICE_SPEC, seed: 3 });
      expect(errorsOf(summary)).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});
