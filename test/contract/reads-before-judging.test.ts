// Issue 9, item 4: the checker derives each expectation from the document. A correct server for
// fixtures/contract/notes.yaml (Basic auth, no documented 401, a required header, uuid ids a client
// may choose, a limit without minimum, an optional body, an array body, base64, text/plain, members
// read by handle while the server numbers them) passes; each fault of that server is still caught.
import { describe, expect, it } from 'vitest';
import { findingTitles } from './helpers.js';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { NOTES_SPEC, startNotesServer, type NotesFault } from './notes-server.js';

const KEY = 'notes-key-7';

async function checkNotes(faults: NotesFault[] = [], checks?: string[]): Promise<RunSummary> {
  const server = await startNotesServer(KEY, faults);
  try {
    return await runContract({ baseUrl: server.url, apiKey: KEY, specPath: NOTES_SPEC, seed: 5, checks });
  } finally {
    await server.close();
  }
}

describe('a checker that reads the document before it judges', () => {
  it('passes a correct server: no error, and only warnings the document invites', async () => {
    const summary = await checkNotes();
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(summary.cases.filter((result) => result.status === 'errored')).toEqual([]);
    const warnings = findingTitles(summary, 'warning');
    // No operation documents a 401: refusing a missing credential with one is not an error.
    expect(warnings).toContain(
      'status-code-conformance getNote: rejects getNote with no Authorization header with undocumented status 401',
    );
    // The document lets a client send an id: keeping it is a warning at most.
    expect(warnings.filter((line) => line.startsWith('server-assigned-id'))).toEqual([
      expect.stringMatching(/^server-assigned-id createNote: used the client-sent id [0-9a-f-]{36}$/),
    ]);
    // An out-of-range id the server ignores (it assigns ids) is accepted: a warning, not "echoed another value".
    expect(warnings).toContain(
      'negative-data-rejection addMember: accepted a body where /id is beyond int64 (2^63) (status 201)',
    );
    // No operation documents a 400 either: refusing a request that leaves out the required X-Tenant with one is fine.
    expect(warnings).toContain(
      'status-code-conformance getNote: rejects a request without the required header parameter X-Tenant with undocumented status 400',
    );
    const invited = /undocumented status (401|415)$|required header parameter X-Tenant with undocumented status 400$/;
    expect(
      warnings.filter(
        (line) => !invited.test(line) && !/^server-assigned-id|^negative-data-rejection addMember/.test(line),
      ),
    ).toEqual([]);
    expect(summary.exitCode).toBe(0);
  }, 60_000);

  it('still catches a required body accepted empty, and sends no empty-body case to an optional body', async () => {
    const summary = await checkNotes(['empty-body-accepted'], ['negative-data-rejection']);
    const errors = findingTitles(summary, 'error');
    expect(errors).toContain('negative-data-rejection createNote: accepted an empty body (status 201)');
    expect(errors.filter((line) => line.includes('touchNote'))).toEqual([]);
  }, 60_000);

  it('still catches another scheme accepted, and never offers a scheme the operation takes as a bad one', async () => {
    const summary = await checkNotes(['bearer-accepted'], ['auth-enforced']);
    const errors = findingTitles(summary, 'error');
    expect(errors).toContain(
      'auth-enforced listNotes: accepted a request with the Bearer scheme instead of Basic (status 200)',
    );
    expect(errors.filter((line) => line.includes('importNotes'))).toEqual([]);
  }, 60_000);

  it('still catches a limit honoured beyond its maximum', async () => {
    const summary = await checkNotes(['limit-beyond-maximum'], ['limit-honoured']);
    expect(findingTitles(summary, 'error')).toEqual([
      expect.stringMatching(/^limit-honoured listNotes: limit=51 was honoured beyond the maximum 50/),
    ]);
  }, 60_000);

  it('still catches an unknown id served, probing with an unlikely id of the parameter’s type (a uuid)', async () => {
    const summary = await checkNotes(['unknown-note-found'], ['not-found-conformance']);
    expect(findingTitles(summary, 'error')).toEqual([
      expect.stringMatching(/^not-found-conformance getNote: answered 200 for id [0-9a-f]{8}-[0-9a-f-]{27}, which/),
    ]);
  }, 60_000);
});

describe('media types, ranges and identities read from the document', () => {
  it('a documented range (any type, image/*) covers the declared type', async () => {
    const { contentTypeConformance } = await import('../../src/contract/checks/content-type-conformance.js');
    const exchange = (documented: string, declared: string) =>
      ({
        operation: { operation: { responses: [{ status: '200', content: [{ mediaType: documented }] }] } },
        intent: 'valid',
        purpose: 'a read',
        request: { method: 'GET', url: 'http://x/', headers: {} },
        response: { status: 200, headers: { 'content-type': declared }, text: 'x', json: undefined },
        durationMs: 1,
      }) as never;
    const plan = { errorSchema: undefined } as never;
    expect(contentTypeConformance.inspect(plan, exchange('*/*', 'application/json'))).toEqual([]);
    expect(contentTypeConformance.inspect(plan, exchange('image/*', 'image/png'))).toEqual([]);
    expect(contentTypeConformance.inspect(plan, exchange('image/*', 'text/plain'))).toHaveLength(1);
    expect(
      contentTypeConformance.inspect(plan, exchange('application/json; charset=utf-8', 'application/json')),
    ).toEqual([]);
  });
});

describe('who names a resource', () => {
  it('does not hold a client-given name (members by handle) to server-assigned ids', async () => {
    const summary = await checkNotes([], ['server-assigned-id']);
    const members = summary.cases.find(
      (result) => result.operationId === 'addMember' && result.check === 'server-assigned-id',
    )!;
    expect(members.status).toBe('skipped');
    expect(members.skipReason).toBe('the client names the resource (handle is required in the body)');
  }, 60_000);
});

describe('links-followed: the stateful sequences a document states', () => {
  it('follows each link of a successful response with its values, and the target answers', async () => {
    const summary = await checkNotes([], ['links-followed']);
    const status = (operationId: string) =>
      summary.cases.find((result) => result.check === 'links-followed' && result.operationId === operationId);
    expect(status('createNote')?.status).toBe('passed');
    expect(status('addMember')?.status).toBe('passed'); // $request.body#/handle
    expect(status('listNotes')?.skipReason).toBe('the operation documents no links');
    expect(summary.exitCode).toBe(0);
  }, 60_000);

  it('catches a target that refuses what the source just returned (an operationRef link)', async () => {
    const summary = await checkNotes(['text-unreadable'], ['links-followed']);
    expect(findingTitles(summary, 'error')).toEqual([
      'links-followed createNote: link NoteText from createNote (201) to noteText answered 404',
    ]);
  }, 60_000);
});

describe('Accept and bodies judged by their media type', () => {
  it('asks for JSON first when documented, the first documented type otherwise, any type when none', async () => {
    const { loadDocument } = await import('../../src/openapi/load.js');
    const { buildPlan } = await import('../../src/contract/prepare/plan.js');
    const { acceptFor } = await import('../../src/contract/prepare/request-builder.js');
    const plan = buildPlan(await loadDocument(NOTES_SPEC));
    const operation = (id: string) => plan.operations.find((candidate) => candidate.id === id)!.operation;
    expect(acceptFor(operation('getNote'))).toBe('application/json, application/xml;q=0.5');
    expect(acceptFor(operation('noteText'))).toBe('text/plain');
    expect(acceptFor({ ...operation('noteText'), responses: [] })).toBe('*/*');
  });

  it('an XML body the document gives is not "not valid JSON"; a JSON-labelled one still is', async () => {
    const { loadDocument } = await import('../../src/openapi/load.js');
    const { buildPlan } = await import('../../src/contract/prepare/plan.js');
    const { responseSchemaConformance } = await import('../../src/contract/checks/response-schema-conformance.js');
    const { errorBodyConformance } = await import('../../src/contract/checks/error-body-conformance.js');
    const plan = buildPlan(await loadDocument(NOTES_SPEC));
    const getNote = plan.operations.find((candidate) => candidate.id === 'getNote')!;
    const exchange = (status: number, type: string) =>
      ({
        operation: getNote,
        intent: 'valid',
        purpose: 'a read',
        request: { method: 'GET', url: 'http://x/notes/1', headers: {} },
        response: { status, headers: { 'content-type': type }, text: '<note/>', json: { ok: false, message: 'no' } },
        durationMs: 1,
      }) as never;
    expect(responseSchemaConformance.inspect(plan, exchange(200, 'application/xml'))).toEqual([]);
    expect(responseSchemaConformance.inspect(plan, exchange(200, 'application/json'))).toHaveLength(1);
    expect(errorBodyConformance.inspect(plan, exchange(404, 'application/xml'))).toEqual([]);
    // A documented 404 is judged by its own schema (once, by response-schema-conformance); an
    // undocumented 4xx by the document's error body.
    expect(responseSchemaConformance.inspect(plan, exchange(404, 'application/json'))).toHaveLength(1);
    expect(errorBodyConformance.inspect(plan, exchange(404, 'application/json'))).toEqual([]);
    expect(errorBodyConformance.inspect(plan, exchange(418, 'application/json'))).toHaveLength(1);
  });
});

describe('path values from the collections they name', () => {
  it('exercises item operations beyond reads with resources the run created, and never a valid DELETE', async () => {
    const summary = await checkNotes([], ['positive-data-acceptance']);
    const result = (operationId: string) =>
      summary.cases.find((item) => item.check === 'positive-data-acceptance' && item.operationId === operationId)!;
    expect(result('touchNote').status).toBe('passed'); // PUT /notes/{noteId}: a note this run created
    expect(result('noteText').status).toBe('passed'); // GET /notes/{noteId}/text
    expect(summary.errors).toBe(0);
  }, 60_000);
});
