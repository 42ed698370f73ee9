// kennel serve and kennel check read one document the same way: each fixture here pins a rule
// where they once disagreed on real documents (a checker false alarm or a mock answer the
// document forbids). Every fixture is served and checked; no error may remain.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { errors, fixture, KEY, serveAndCheck } from './agreement-helpers.js';

function warnings(summary: RunSummary, check: string): string[] {
  return summary.cases.flatMap((result) =>
    result.check === check
      ? result.failures.filter((finding) => finding.severity === 'warning').map((finding) => finding.title)
      : [],
  );
}

describe('kennel serve and kennel check agree', () => {
  it('a DELETE of a generated id answered with an undocumented 404 is a warning', async () => {
    const summary = await serveAndCheck('delete-without-404.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'status-code-conformance').join('\n')).toMatch(/deleteNote.*404/);
  });
});

describe('error statuses a document does not list', () => {
  it('an undocumented status never borrows a body that names another status; a 403 refuses an unknown id', async () => {
    const summary = await serveAndCheck('errors-with-status-enum.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'status-code-conformance').join('\n')).toMatch(/undocumented status 400/);
  });
});

describe('error bodies for statuses an operation does not list', () => {
  it("an undocumented 401 in the operation's own error shape is not judged by another operation's", async () => {
    const summary = await serveAndCheck('undocumented-status-own-error-shape.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'error-body-conformance')).toEqual([]);
  });
});

describe("the document's own example", () => {
  it('a page of a list example that breaks its schema is a warning', async () => {
    const summary = await serveAndCheck('list-example-breaks-schema.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'response-schema-conformance').join('\n')).toMatch(
      /avatar is required \(the document's own example breaks its schema\)/,
    );
  });
});

describe('what comes back from a write', () => {
  it('a value sent that the response schema reshapes (number → Amount, text → enum) is not compared', async () => {
    const summary = await serveAndCheck('sent-value-reshaped.yaml');
    expect(errors(summary)).toEqual([]);
  });

  it("a create answers what it declares as sent, although the read's closed schema drops it", async () => {
    const summary = await serveAndCheck('closed-read-schema.yaml');
    expect(errors(summary)).toEqual([]);
  });

  it("an action's answer (a create whose items have no key) echoes what it declares of the request", async () => {
    const summary = await serveAndCheck('action-answer-example.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'resource-round-trip')).toEqual([]);
    expect(summary.cases.find((c) => c.check === 'resource-round-trip')?.status).toBe('passed');
  });

  it("an action's answer (a create whose items have no key) that differs from what was sent is a warning", async () => {
    // Stateless, the mock answers the document's example as Prism does: other values than the ones sent.
    const summary = await serveAndCheck('action-answer-example.yaml', [], true);
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'resource-round-trip').join('\n')).toMatch(
      /answer of a create whose items have no key differs from what was sent: \/merchantAccount sent/,
    );
  });

  it('data-fidelity reads a sub-resource back under the parent it was created under', async () => {
    const summary = await serveAndCheck('sub-resource-fidelity.yaml');
    expect(errors(summary)).toEqual([]);
    expect(summary.cases.find((c) => c.check === 'data-fidelity' && c.operationId === 'createTask')?.status).toBe(
      'passed',
    );
  });
});

describe('compositions', () => {
  it("a discriminator without mapping names a variant by the variant's own value", async () => {
    const summary = await serveAndCheck('discriminator-own-values.yaml');
    expect(errors(summary)).toEqual([]);
  });
});

describe('media types', () => {
  it('an object error under stream media types only: the mock answers it in that type, the checker agrees', async () => {
    const summary = await serveAndCheck('errors-under-stream-types.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'content-type-conformance')).toEqual([]);
  });

  it('a deployment answering that error in JSON (as Docker does) gets a warning, not an error', async () => {
    const specPath = fixture('errors-under-stream-types.yaml');
    const server = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'no such archive' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const summary = await runContract({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY, specPath, seed: 1 });
      expect(warnings(summary, 'content-type-conformance').join('\n')).toMatch(/application\/json/);
      expect(errors(summary).filter((error) => error.startsWith('content-type-conformance'))).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('generated answers', () => {
  it('a listed item is the same item read by id, nested optional objects included', async () => {
    const summary = await serveAndCheck('list-and-read-depth.yaml');
    expect(errors(summary)).toEqual([]);
  });
});

describe('security', () => {
  it('a requirement naming only an undefined scheme asks for nothing, and loading says so', async () => {
    const loadWarnings: string[] = [];
    const summary = await serveAndCheck('undefined-security-scheme.yaml', loadWarnings);
    expect(errors(summary)).toEqual([]);
    expect(loadWarnings.join('\n')).toMatch(/"sessionToken", which components.securitySchemes does not define/);
  });

  it('a lone requirement object where the list belongs reads as that one requirement, and loading says so', async () => {
    const loadWarnings: string[] = [];
    const summary = await serveAndCheck('security-not-a-list.yaml', loadWarnings);
    expect(errors(summary)).toEqual([]);
    expect(summary.coverage?.unsucceeded).toEqual([]);
    expect(loadWarnings.join('\n')).toMatch(/security is one requirement object, not a list/);
  });
});

describe('lists and reads', () => {
  it('a listed item is compared with the read only in what the read shows', async () => {
    const summary = await serveAndCheck('list-shows-more.yaml');
    expect(errors(summary)).toEqual([]);
  });
});

describe('collection paths that end in a slash', () => {
  it('/notes/ is the collection of /notes/{id}/ and of /notes/{id}/summary/; /boards/ of /boards/{boardId}', async () => {
    const summary = await serveAndCheck('trailing-slash-collections.yaml');
    expect(errors(summary)).toEqual([]);
    expect(summary.coverage?.unsucceeded).toEqual([]);
    expect(warnings(summary, 'not-found-conformance')).toEqual([]);
  });
});

describe('sub-resources read later', () => {
  it('id-permanence reads each created sub-resource under the parent it was created under', async () => {
    const summary = await serveAndCheck('sub-resource-permanence.yaml');
    expect(errors(summary)).toEqual([]);
  });
});

describe('resources as APIs that take forms shape them', () => {
  it('a form-encoded create and a POST update on the item are kept by the mock and read back', async () => {
    const summary = await serveAndCheck('form-encoded-resources.yaml');
    expect(errors(summary)).toEqual([]);
    expect(summary.coverage?.unsucceeded).toEqual([]);
  });
});

describe('items made by a POST without one JSON object for a body', () => {
  it('a bulk create (a list of items) and a bodyless create are kept by the mock and read back', async () => {
    const summary = await serveAndCheck('made-by-post.yaml');
    expect(errors(summary)).toEqual([]);
    expect(summary.coverage?.unsucceeded).toEqual([]);
  });
});

describe('paths with a format suffix', () => {
  it('`/notes.json` and `/notes/{id}.json` are one collection: every operation succeeds, every item is deleted', async () => {
    const summary = await serveAndCheck('format-suffix-paths.yaml');
    expect(errors(summary)).toEqual([]);
    expect(summary.coverage?.unsucceeded).toEqual([]);
    expect(summary.cleanup?.left ?? []).toEqual([]);
  });
});

describe('paths written as Express routes', () => {
  it('a whole segment `:id` is the template `{id}`: the item path of its collection, said in a load warning', async () => {
    const loadWarnings: string[] = [];
    const summary = await serveAndCheck('colon-path-parameters.yaml', loadWarnings);
    expect(errors(summary)).toEqual([]);
    expect(summary.coverage?.unsucceeded).toEqual([]);
    expect(summary.cleanup?.left ?? []).toEqual([]);
    expect(loadWarnings.join('\n')).toMatch(
      /"\/notes\/:id" .* reads it as \/notes\/\{id\} \(id declared as required text\)/,
    );
  });
});

describe('the order of a check', () => {
  it('runs producers before consumers: a valid order names a pet created first, though declared after', async () => {
    const summary = await serveAndCheck('consumer-declared-first.yaml');
    expect(errors(summary)).toEqual([]);
    const createOrder = summary.cases.find(
      (result) => result.check === 'positive-data-acceptance' && result.operationId === 'createOrder',
    );
    expect(createOrder?.status).toBe('passed');
  });
});

describe('children and their parents', () => {
  it('a child is read under the parent it was seen under, never with keys listed without one', async () => {
    const summary = await serveAndCheck('children-seen-elsewhere.yaml');
    expect(errors(summary)).toEqual([]);
    const getMember = summary.cases.find(
      (result) => result.check === 'positive-data-acceptance' && result.operationId === 'getMember',
    );
    expect(getMember?.status).toBe('unexercised');
  });
});

describe('invented references', () => {
  it('a body accepted without its optional reference does not make an invented one a must', async () => {
    const summary = await serveAndCheck('optional-reference-left-out.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'positive-data-acceptance').join('\n')).toMatch(
      /rejected a valid body .* with 422 \(valid, but the document does not say it suffices\)/,
    );
  });
});

describe('path parameters', () => {
  it('a path parameter declared without a schema still gets a value: no request goes to an empty segment', async () => {
    const summary = await serveAndCheck('path-parameter-without-schema.yaml');
    expect(errors(summary)).toEqual([]);
    const urls = summary.cases.flatMap((result) =>
      result.failures.map((finding) => finding.exchange?.request.url ?? ''),
    );
    expect(urls.filter((url) => url.includes('//tokens/'))).toEqual([]);
    expect(
      summary.cases.find((c) => c.check === 'status-code-conformance' && c.operationId === 'getWalletToken')?.status,
    ).toBe('passed');
  });
});

describe('Location of a create', () => {
  it("a sub-resource's Location is matched under its parent's URL, and names the item's own id", async () => {
    const summary = await serveAndCheck('sub-resource-location.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'location-resolves')).toEqual([]);
    expect(summary.cases.find((c) => c.check === 'location-resolves' && c.operationId === 'addAddress')?.status).toBe(
      'passed',
    );
  });
});

describe('actions on one item', () => {
  it('an action answering the item answers the item acted on, an id a client can read', async () => {
    const summary = await serveAndCheck('item-action-answers-item.yaml');
    expect(errors(summary)).toEqual([]);
  });
});

describe('lists of variants', () => {
  it('a list whose items are a oneOf of objects is kept by the mock and judged as a list by the checker', async () => {
    const summary = await serveAndCheck('variant-list-items.yaml');
    expect(errors(summary)).toEqual([]);
    const judged = summary.cases.filter(
      (c) => c.operationId === 'listMenu' && ['list-freshness', 'collection-consistency'].includes(c.check),
    );
    expect(judged.map((c) => c.status)).toEqual(['passed', 'passed']);
    expect(warnings(summary, 'not-found-conformance')).toEqual([]);
  });
});

describe('JSON media types other than application/json', () => {
  it('items the mock keeps are answered in the JSON media type their status documents (HAL here)', async () => {
    const summary = await serveAndCheck('vendor-json-media.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'content-type-conformance')).toEqual([]);
  });
});

describe('statuses a document does not list', () => {
  it('an undocumented status answered in a JSON type (problem details here) draws no Content-Type finding', async () => {
    const summary = await serveAndCheck('undocumented-status-json-type.yaml');
    expect(errors(summary)).toEqual([]);
    expect(warnings(summary, 'status-code-conformance').join('\n')).toMatch(/undocumented status 401/);
    expect(warnings(summary, 'content-type-conformance')).toEqual([]);
  });
});
