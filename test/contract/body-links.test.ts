import { describe, expect, it } from 'vitest';
import { bodyLinkPaths, linkValues } from '../../src/contract/prepare/body-links.js';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { COURSES_SPEC, startCoursesServer, type CoursesFault, type CoursesVariant } from './courses-server.js';

async function checkCourses(options: { fault?: CoursesFault; variant?: CoursesVariant }): Promise<RunSummary> {
  const server = await startCoursesServer(options);
  try {
    return await runContract({
      baseUrl: server.url,
      apiKey: '',
      specPath: COURSES_SPEC,
      seed: 3,
      // Creates need a teacher the deployment has: left to the checks that explore references.
      excludeChecks: ['positive-data-acceptance', 'data-fidelity'],
    });
  } finally {
    await server.close();
  }
}

const errorsOf = (summary: RunSummary) =>
  summary.cases.flatMap((result) =>
    result.failures
      .filter((failure) => failure.severity === 'error')
      .map((failure) => `${result.check} ${result.operationId}: ${failure.title}`),
  );

describe('links in response bodies, and a boolean filter', () => {
  it('finds self, related and HAL links in a schema, never paging links', () => {
    const uri = { type: 'string', format: 'uri' };
    const schema = {
      type: 'object',
      properties: {
        data: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'integer' }, links: { type: 'object', properties: { self: uri, origin: uri } } },
          },
        },
        links: { type: 'object', properties: { self: uri, next: uri } },
        _links: { type: 'object', properties: { author: { type: 'object', properties: { href: uri } } } },
        homepage: uri,
      },
    };
    const paths = bodyLinkPaths(schema);
    expect(paths.map((path) => [path.path.join('.'), path.name])).toEqual([
      ['data.*.links.self', 'self'],
      ['data.*.links.origin', 'origin'],
      ['links.self', 'self'],
      ['_links.author.href', 'author'],
    ]);
    const body = { data: [{ id: 7, links: { self: '/things/7' } }], links: { self: '/things' } };
    expect(linkValues(body, paths[0]!)).toEqual([{ url: '/things/7', owner: { id: 7, links: { self: '/things/7' } } }]);
    expect(linkValues(body, paths[2]!)).toEqual([{ url: '/things', owner: body }]);
  });

  it.each(['path-links', undefined] as const)('passes a correct server (variant %s)', async (variant) => {
    const summary = await checkCourses({ variant });
    expect(errorsOf(summary)).toEqual([]);
    const followed = summary.cases.filter(
      (result) => result.check === 'body-links-resolve' && result.status === 'passed',
    );
    // Creates name a teacher the run has seen (a course's teacher link read once): their links are followed too.
    expect(followed.map((result) => result.operationId).sort()).toEqual(['createCourse', 'getCourse', 'listCourses']);
  });

  it.each([
    ['self-points-elsewhere', /^body-links-resolve (listCourses|getCourse): the self link of id \d leads to id \d$/],
    ['teacher-link-unknown', /^body-links-resolve (listCourses|getCourse): the teacher link of \w+ leads to 404$/],
  ] as const)('finds %s', async (fault, title) => {
    const summary = await checkCourses({ fault });
    expect(errorsOf(summary).filter((line) => line.startsWith('body-links-resolve'))).toEqual(
      expect.arrayContaining([expect.stringMatching(title)]),
    );
  });

  it('finds a boolean filter ignored (online for online_only)', async () => {
    const summary = await checkCourses({ fault: 'online-filter-ignored' });
    expect(errorsOf(summary)).toContainEqual(
      'filter-honoured listCourses: online=true returned 1 of 2 items with another online_only',
    );
    const passed = await checkCourses({});
    expect(passed.cases.find((result) => result.check === 'filter-honoured')?.status).toBe('passed');
  });

  it('warns about a link under the base URL that names no documented operation', async () => {
    const summary = await checkCourses({ fault: 'teacher-link-undocumented' });
    expect(errorsOf(summary)).toEqual([]);
    const warnings = summary.cases.flatMap((result) =>
      result.check === 'body-links-resolve' ? result.failures.map((failure) => failure.title) : [],
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/^the teacher link .*\/api\/staff\/.* names no operation of the document$/),
    );
  });
});
