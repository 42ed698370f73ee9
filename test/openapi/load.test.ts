import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/openapi/load.js';
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

  it('not OpenAPI 3', async () => {
    const target = file('swagger.yaml', 'swagger: "2.0"\ninfo:\n  title: x\n  version: "1"\npaths: {}\n');
    expect((await failure(target)).message).toMatch(
      /swagger\.yaml:1: kennel reads OpenAPI 3\.0 and 3\.1 documents; found no `openapi` field/,
    );
  });

  it('schema violation points at the offending line', async () => {
    const target = file(
      'invalid.yaml',
      'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          descriptionn: typo\n',
    );
    const error = await failure(target);
    expect(error.message).toMatch(
      /invalid\.yaml:(9|10): not a valid OpenAPI document: #\/paths\/~1a\/get\/responses\/200/,
    );
  });

  it('dangling $ref', async () => {
    const target = file(
      'ref.yaml',
      'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "#/components/responses/Nope"\n',
    );
    const error = await failure(target);
    expect(error.message).toMatch(/ref\.yaml: .*Nope/);
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
    expect((await failure(edited)).message).toMatch(
      /edited\.yaml:\d+: not a valid OpenAPI document: #\/paths\/~1pets\/get /,
    );
  });
});
