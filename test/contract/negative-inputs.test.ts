import { describe, expect, it } from 'vitest';
import { runContract, type ContractOptions, type RunSummary } from '../../src/contract/run/runner.js';
import { onlyChecks } from './helpers.js';
import { LESSONS_SPEC, startLessonsServer, type LessonsFault, type LessonsVariant } from './lessons-server.js';

const API_KEY = 'lessons-key';

async function checkLessons(
  options: { faults?: LessonsFault[]; variants?: LessonsVariant[] },
  run: Partial<ContractOptions> = {},
): Promise<RunSummary> {
  const server = await startLessonsServer(API_KEY, options);
  try {
    return await runContract({ baseUrl: server.url, apiKey: API_KEY, specPath: LESSONS_SPEC, seed: 5, ...run });
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

// Missing and malformed parameters, formats and bounds: each fault a validation real servers get
// wrong, and the check (and the input) that must show it, which its run has with the producers
// (helpers.ts); the correct server's runs have every check.
const FAULTS: [LessonsFault, string, RegExp][] = [
  ['missing-teacher-accepted', 'negative-data-rejection', /without the required query parameter teacher/],
  ['missing-header-accepted', 'negative-data-rejection', /without the required header parameter X-Campus/],
  ['malformed-uuid-accepted', 'negative-data-rejection', /teacher=not-a-uuid \(not a uuid\)/],
  ['malformed-date-time-accepted', 'negative-data-rejection', /starts_at is|from=not-a-date-time/],
  ['offset-refused', 'positive-data-acceptance', /starts_at a date-time with a \+02:00 offset/],
  ['maximum-refused', 'positive-data-acceptance', /seats at its maximum 30/],
  ['max-length-refused', 'positive-data-acceptance', /title exactly 40 characters/],
  ['exclusive-minimum-accepted', 'negative-data-rejection', /price is equal to its exclusive minimum 0/],
];

describe('negative and boundary inputs (fixtures/contract/lessons.yaml)', () => {
  it('passes the correct server, and the variant that reads a local time as UTC', async () => {
    for (const variants of [[], ['lenient-local-time']] as LessonsVariant[][]) {
      const summary = await checkLessons({ variants });
      expect(errorsOf(summary), `variants ${variants.join(', ')}`).toEqual([]);
      expect(summary.exitCode).toBe(0);
    }
  });

  it.each(FAULTS)('finds %s with %s', async (fault, check, title) => {
    const summary = await checkLessons({ faults: [fault] }, onlyChecks(check));
    const errors = errorsOf(summary).filter((line) => line.startsWith(`${check} `));
    expect(
      errors.some((line) => title.test(line)),
      errorsOf(summary).join('\n'),
    ).toBe(true);
  });
});
