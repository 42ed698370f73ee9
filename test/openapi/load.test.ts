import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocument, MAX_LISTED_COMPLAINTS } from '../../src/openapi/load.js';
import { ToolError } from '../../src/core/tool-error.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kennel-spec-'));
function file(name: string, text: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, text);
  return target;
}

async function failure(target: string): Promise<ToolError> {
  const error = await loadDocument(target).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('loadDocument errors name the file and line', () => {
  it('missing file', async () => {
    const error = await failure(path.join(dir, 'absent.yaml'));
    expect(error.message).toMatch(/absent\.yaml: cannot read the OpenAPI document: no such file/);
  });

  it('YAML syntax error', async () => {
    const target = file('syntax.yaml', 'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths: {\n  /a: [\n');
    const error = await failure(target);
    expect(error.message).toMatch(/syntax\.yaml:\d+:\d+: invalid YAML\/JSON/);
  });

  it('duplicate keys', async () => {
    const target = file('dupe.yaml', 'openapi: 3.1.0\ninfo:\n  title: x\n  title: y\n  version: "1"\npaths: {}\n');
    const error = await failure(target);
    expect(error.message).toMatch(/dupe\.yaml:4:\d+: invalid YAML\/JSON: .*unique/i);
  });

  it('neither OpenAPI 3 nor Swagger 2.0', async () => {
    const target = file('other.yaml', 'asyncapi: "2.0"\ninfo:\n  title: x\n  version: "1"\npaths: {}\n');
    expect((await failure(target)).message).toMatch(
      /other\.yaml:1: kennel reads OpenAPI 3\.0 and 3\.1 \(and Swagger 2\.0\) documents; found no `openapi` field/,
    );
    const old = file('old.yaml', 'info:\n  title: x\n  version: "1"\nopenapi: 3.2.0\n');
    expect((await failure(old)).message).toMatch(/old\.yaml:4: .*found openapi: "3\.2\.0"/);
  });

  it('a meta-schema violation kennel can live with is a warning at its line, not a refusal', async () => {
    const target = file(
      'invalid.yaml',
      'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          descriptionn: typo\n',
    );
    const loaded = await loadDocument(target);
    expect(loaded.operations.map((operation) => operation.id)).toEqual(['GET /a']);
    expect(loaded.warnings).toEqual([
      {
        location: `${target}:9`,
        message:
          'not valid OpenAPI 3.1.0: #/paths/~1a/get/responses/200 lacks the required field `description` (kennel goes on)',
      },
      {
        location: `${target}:10`,
        message:
          'not valid OpenAPI 3.1.0: #/paths/~1a/get/responses/200/descriptionn unknown field `descriptionn` (kennel goes on)',
      },
    ]);
  });

  it('lists the first meta-schema complaints and counts the rest', async () => {
    const paths = Array.from(
      { length: MAX_LISTED_COMPLAINTS + 5 },
      (_, i) => `  /p${i}:\n    get:\n      responses: {"200": {}}\n`,
    );
    const target = file('many.yaml', `openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n${paths.join('')}`);
    const { warnings } = await loadDocument(target);
    expect(warnings).toHaveLength(MAX_LISTED_COMPLAINTS + 1);
    expect(warnings.at(-1)).toEqual({ location: `${target}:1`, message: 'and 5 more meta-schema complaints' });
  });

  it('dangling $ref: file, line and JSON pointer', async () => {
    const target = file(
      'ref.yaml',
      'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "#/components/responses/Nope"\n',
    );
    const error = await failure(target);
    expect(error.message).toBe(
      `${target}:9: not a usable OpenAPI document: #/paths/~1a/get/responses/200: $ref "#/components/responses/Nope" points at nothing in the document`,
    );
  });

  it('a missing external file names it', async () => {
    const target = file(
      'external.yaml',
      'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n  /a:\n    $ref: "./absent-paths.yaml"\n',
    );
    expect((await failure(target)).message).toMatch(/external\.yaml: cannot resolve references: .*absent-paths\.yaml/);
  });

  it.each([
    [
      'a parameter without `in`',
      '      parameters:\n        - name: q\n',
      9,
      "#/paths/~1a/get/parameters/0: a parameter's `in` must be one of query, header, path, cookie",
    ],
    [
      'an operation that is not a mapping',
      '      x: 1\n    post: nope\n',
      9,
      '#/paths/~1a/post: an operation must be a mapping',
    ],
    [
      'responses that are a list',
      '      responses: [1]\n',
      8,
      '#/paths/~1a/get/responses: must be a mapping of status codes',
    ],
  ])('what kennel cannot serve is an error at its line: %s', async (_name, operation, line, message) => {
    const target = file(
      'shape.yaml',
      `openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n  /a:\n    get:\n${operation}`,
    );
    const error = await failure(target);
    expect(error.message).toBe(`${target}:${line}: not a usable OpenAPI document: ${message}`);
  });

  it('a top-level list', async () => {
    const target = file('list.yaml', '- a\n- b\n');
    expect((await failure(target)).message).toMatch(/list\.yaml:1: not an OpenAPI document/);
  });
});

describe('documents validated at build time', () => {
  it('records the shipped specs, and validates anything else in full', async () => {
    const { readFileSync } = await import('node:fs');
    const { PETSTORE_SPEC, packageFile } = await import('../../src/assets.js');
    const { documentDigest, VALIDATED_SPECS } = await import('../../src/openapi/load.js');
    const recorded = JSON.parse(readFileSync(VALIDATED_SPECS, 'utf8')) as string[];
    for (const file of [PETSTORE_SPEC, packageFile('spec/domains.yaml')])
      expect(recorded).toContain(documentDigest((await loadDocument(file)).document));
    const edited = file(
      'edited.yaml',
      readFileSync(PETSTORE_SPEC, 'utf8').replace('operationId: listPets', 'operationIdd: listPets'),
    );
    const { warnings } = await loadDocument(edited);
    expect(warnings.map((warning) => warning.message)).toContain(
      'not valid OpenAPI 3.1.0: #/paths/~1pets/get/operationIdd unknown field `operationIdd` (kennel goes on)',
    );
    expect((await loadDocument(PETSTORE_SPEC)).warnings).toEqual([]);
  });
});

describe('references through references', () => {
  it('a $ref whose path passes through another $ref resolves (bundled documents write them)', async () => {
    const target = file(
      'through.yaml',
      [
        'openapi: 3.1.0',
        'info: {title: x, version: "1"}',
        'paths:',
        '  /a:',
        '    get:',
        '      responses:',
        '        "200":',
        '          description: ok',
        '          content:',
        '            application/json:',
        '              schema: {$ref: "#/components/schemas/Alias/properties/id"}',
        'components:',
        '  schemas:',
        '    Alias: {$ref: "#/components/schemas/Thing"}',
        '    Thing: {type: object, properties: {id: {type: integer}}}',
        '',
      ].join('\n'),
    );
    const loaded = await loadDocument(target);
    expect(loaded.operations).toHaveLength(1);
    expect(loaded.warnings).toEqual([]);
  });
});
