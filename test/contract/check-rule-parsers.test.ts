// The pure pieces behind the authentication, near-miss input and deprecation checks: HTTP-date
// and WWW-Authenticate parsing, and the near-miss cases generated from the Pet Store's NewPet.
import { describe, expect, it } from 'vitest';
import { exactNumbers, parseJson } from '../../src/core/json.js';
import { invalidBodies } from '../../src/contract/prepare/generate.js';
import { buildPlan } from '../../src/contract/prepare/plan.js';
import { challengedSchemes } from '../../src/contract/checks/auth-schemes.js';
import { parseHttpDate } from '../../src/contract/checks/http-date.js';
import { notAServerError } from '../../src/contract/checks/not-a-server-error.js';
import { documentedSunset, sunsetDateConformance } from '../../src/contract/checks/sunset-date-conformance.js';
import { deprecationSignalled } from '../../src/contract/checks/deprecation-signalled.js';
import { deprecationHeadersScoped } from '../../src/contract/checks/deprecation-headers-scoped.js';
import type { PlannedOperation } from '../../src/contract/prepare/plan.js';
import type { Exchange } from '../../src/contract/types.js';
import { loadDocument } from '../../src/openapi/load.js';
import { PETSTORE_SPEC } from '../../src/assets.js';

const plan = buildPlan(await loadDocument(PETSTORE_SPEC));
const createPet = plan.operations.find((operation) => operation.id === 'createPet')!;
const getPet = plan.operations.find((operation) => operation.id === 'getPet')!;
const listPets = plan.operations.find((operation) => operation.id === 'listPets')!;

/** An exchange of `operation` answered with `status` and `headers`. */
function answered(operation: PlannedOperation, status: number, headers: Record<string, string> = {}): Exchange {
  return {
    operation,
    intent: 'valid',
    purpose: `${operation.id} (test)`,
    request: { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} },
    response: { status, headers, text: '', json: undefined },
    durationMs: 1,
  };
}

/** `severity title` of each finding of a response check on one exchange. */
function judged(check: { inspect: typeof notAServerError.inspect }, exchange: Exchange): string[] {
  return check.inspect(plan, exchange).map((finding) => `${finding.severity} ${finding.title}`);
}
const validate = plan.validators.at(createPet.body!.pointer);
const parse = (text: string) => {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
};

describe('HTTP-date (RFC 9110 §5.6.7)', () => {
  const day = Date.UTC(2030, 11, 5);
  it.each([
    ['Thu, 05 Dec 2030 00:00:00 GMT', 'IMF-fixdate', day],
    ['Thu, 05 Dec 2030 23:59:59 GMT', 'IMF-fixdate', day + 86_399_000],
    ['Thursday, 05-Dec-30 00:00:00 GMT', 'rfc850-date', day],
    ['Thu Dec  5 00:00:00 2030', 'asctime-date', day],
  ])('reads %s', (text, form, time) => {
    expect(parseHttpDate(text)).toEqual({ form, time, weekdayMatches: true });
  });

  it('notices a wrong day name', () => {
    expect(parseHttpDate('Fri, 05 Dec 2030 00:00:00 GMT')?.weekdayMatches).toBe(false);
  });

  it.each([
    '2030-12-05',
    '2030-12-05T00:00:00Z',
    'Thu, 05 Dec 2030 00:00:00 UTC',
    'thu, 05 dec 2030 00:00:00 GMT',
    'Thu, 5 Dec 2030 00:00:00 GMT',
    'Thu, 31 Feb 2030 00:00:00 GMT',
    'Thu, 05 Dec 2030 24:00:00 GMT',
    '@1922227200',
  ])('refuses %s', (text) => {
    expect(parseHttpDate(text)).toBeUndefined();
  });

  it('takes the removal day from the document (x-sunset: 2030-12-05)', () => {
    expect(documentedSunset(getPet)).toEqual({ day: '2030-12-05' });
  });
});

describe('WWW-Authenticate challenges (RFC 9110 §11.6.1)', () => {
  it.each([
    ['Bearer', ['bearer']],
    ['Bearer realm="kennel", error="invalid_token"', ['bearer']],
    ['bearer realm="pets, v1", error="invalid_token"', ['bearer']],
    ['Basic realm="x", Bearer realm="y", error="z"', ['basic', 'bearer']],
    ['Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"', ['newauth', 'basic']],
    ['Negotiate a87421000492aa874209af8bc028==', ['negotiate']],
    ['', []],
    ['realm="x"', []],
  ])('%s names %j', (header, schemes) => {
    expect(challengedSchemes(header)).toEqual(schemes);
  });
});

describe('near-miss invalid bodies', () => {
  const cases = invalidBodies(createPet.body!.schema, { name: 'Rex', categoryId: 1 }, validate, parse);
  const labels = cases.map((item) => item.label);

  it('include the near misses of an enum, an integer and a string', () => {
    expect(labels).toEqual(
      expect.arrayContaining([
        '/status is "Available", an enum value in another letter case',
        '/status is an empty string',
        '/status is null',
        '/categoryId is a numeric string',
        '/categoryId is a boolean',
        '/categoryId is a one-element array',
        '/categoryId is a fraction',
        '/categoryId is 1e400',
        '/categoryId is beyond int64 (2^63)',
        '/categoryId is beyond int64 (-2^63-1)',
        '/name is a one-element array',
      ]),
    );
  });

  it('never send a case the schema accepts once serialised (an empty name is a valid name)', () => {
    expect(labels).not.toContain('/name is an empty string');
    for (const item of cases.filter((candidate) => candidate.schemaViolation)) {
      const text = 'raw' in item.body ? item.body.raw : JSON.stringify(item.body.value);
      expect(validate(exactNumbers(parse(text))), item.label).not.toEqual([]);
    }
  });

  it('ask out-of-range integers to be kept exactly if accepted, and fit the default --max-examples', () => {
    expect(cases.filter((item) => item.exact).map((item) => [item.label, item.exact!.value])).toEqual([
      ['/categoryId is beyond int64 (2^63)', 2n ** 63n],
      ['/categoryId is beyond int64 (-2^63-1)', -(2n ** 63n) - 1n],
      ['/categoryId is 1e400', 10n ** 400n],
    ]);
    expect(cases.length).toBeLessThanOrEqual(30);
  });
});

describe('not-a-server-error', () => {
  const exchange = (status: number, purpose: string): Exchange => ({
    operation: createPet,
    intent: 'valid',
    purpose,
    request: { method: 'POST', url: 'http://127.0.0.1/v1/pets', headers: {} },
    response: { status, headers: {}, text: '', json: undefined },
    durationMs: 1,
  });

  it('titles a finding by status alone, so repeats of one fault group into one finding', () => {
    const titles = ['first', 'second'].map((purpose) => notAServerError.inspect(plan, exchange(500, purpose))[0]!);
    expect(titles[0]!.title).toBe(titles[1]!.title);
    expect(titles[0]!.actual).toContain('first');
    expect(notAServerError.inspect(plan, exchange(503, 'third'))[0]!.title).not.toBe(titles[0]!.title);
  });
});

describe('deprecation headers', () => {
  const sunset = 'Thu, 05 Dec 2030 00:00:00 GMT';

  it.each([
    [{ sunset }, []],
    [{ sunset: 'Thu, 05 Dec 2030 23:59:59 GMT' }, []],
    [{}, []],
    [
      { deprecation: '@0' },
      ['warning Deprecation is sent without the documented Sunset 2030-12-05 (any time that day, UTC)'],
    ],
    [
      { sunset: 'Fri, 06 Dec 2030 00:00:00 GMT' },
      [
        'error Sunset announces Fri, 06 Dec 2030 00:00:00 GMT, not the documented removal 2030-12-05 (any time that day, UTC)',
      ],
    ],
    [{ sunset: '2030-12-05' }, ['error Sunset "2030-12-05" is not an HTTP-date']],
    [{ sunset: 'Thursday, 05-Dec-30 00:00:00 GMT' }, ['warning Sunset is written in the obsolete rfc850-date form']],
    [{ sunset: 'Fri, 05 Dec 2030 00:00:00 GMT' }, ['warning Sunset names the wrong day of the week']],
  ])('sunset-date-conformance on getPet with %j', (headers, findings) => {
    expect(judged(sunsetDateConformance, answered(getPet, 200, headers))).toEqual(findings);
  });

  it('deprecation-headers-scoped: an operation the document does not deprecate sends neither header', () => {
    expect(judged(deprecationHeadersScoped, answered(listPets, 200))).toEqual([]);
    expect(judged(deprecationHeadersScoped, answered(getPet, 200, { sunset, deprecation: '@0' }))).toEqual([]);
    expect(judged(deprecationHeadersScoped, answered(listPets, 401, { deprecation: '@0' }))).toEqual([
      'error Deprecation on listPets, which the document does not deprecate',
    ]);
  });

  it.each([
    [{ deprecation: '@0', sunset }, []],
    [{ sunset }, []],
    [{}, ['warning deprecated getPet answered without a Deprecation or Sunset header']],
    [{ deprecation: 'true' }, ['warning Deprecation "true" is not an RFC 9745 date']],
    [{ deprecation: '@1956528000', sunset }, ['warning Deprecation is dated after the Sunset']],
  ])('deprecation-signalled on getPet with %j', (headers, findings) => {
    expect(judged(deprecationSignalled, answered(getPet, 200, headers))).toEqual(findings);
  });
});
