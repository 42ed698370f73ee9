import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { packageFile } from '../assets.js';
import { ToolError } from '../core/tool-error.js';
import type { OpenApiDocument } from './openapi-types.js';
import { listOperations, type Operation } from './operations.js';
import { basePathOf } from './servers.js';
import { parseYamlSource } from './yaml-source.js';

/** An OpenAPI document read, validated and normalised once; everything else derives from it. */
export interface LoadedDocument {
  /** The file it came from, as the user named it. */
  file: string;
  /** The document with external references bundled in; `$ref`s inside are local (`#/...`). */
  document: OpenApiDocument;
  /** The same document fully dereferenced (shared sub-objects; may be cyclic). */
  dereferenced: OpenApiDocument;
  operations: Operation[];
  /** Path prefix of the first server URL (`/v1`), or '' when the document has none. */
  basePath: string;
  /** `file:line` for a JSON pointer into the document, for error messages. */
  locate(pointer: string): string;
}

/** Reads, validates and dereferences an OpenAPI 3.0/3.1 document; failures are ToolErrors naming file:line. */
export async function loadDocument(file: string): Promise<LoadedDocument> {
  const text = await readText(file);
  const parsed = parseYamlSource(text);
  if (!parsed.ok)
    throw new ToolError(`invalid YAML/JSON: ${parsed.message}`, `${file}:${parsed.line}:${parsed.column}`);
  const locate = (pointer: string): string => `${file}:${parsed.source.lineOf(pointer) ?? 1}`;
  const raw = parsed.source.value;
  checkVersion(raw, file, locate);
  const absolute = path.resolve(file);
  const document = (await bundle(absolute, raw, file)) as OpenApiDocument;
  const trusted = (await validatedAtBuild()).has(documentDigest(document));
  const dereferenced = trusted
    ? ((await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as OpenApiDocument)
    : await validate(structuredClone(document), locate);
  return { file, document, dereferenced, operations: listOperations(document), basePath: basePathOf(document), locate };
}

/** Where the build records the digests of the shipped documents it validated (scripts/validate-specs.js). */
export const VALIDATED_SPECS = packageFile('dist/validated-specs.json');

let validated: Promise<Set<string>> | undefined;

/**
 * Digests of documents validated when the package was built. A shipped spec that still matches
 * skips schema validation at start-up (it costs ~20 MB of RSS and ~60 ms); any other document,
 * or an edited one, is validated in full.
 */
function validatedAtBuild(): Promise<Set<string>> {
  validated ??= readFile(VALIDATED_SPECS, 'utf8').then(
    (text) => new Set(JSON.parse(text) as string[]),
    () => new Set<string>(),
  );
  return validated;
}

/** SHA-256 of a bundled document (external references included). */
export function documentDigest(document: OpenApiDocument): string {
  return createHash('sha256').update(JSON.stringify(document)).digest('hex');
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : (error as Error).message;
    throw new ToolError(`cannot read the OpenAPI document: ${reason}`, file);
  }
}

function checkVersion(raw: unknown, file: string, locate: (pointer: string) => string): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ToolError('not an OpenAPI document: the top level must be a mapping', `${file}:1`);
  }
  const version = (raw as Record<string, unknown>).openapi;
  if (typeof version !== 'string' || !/^3\.[01]\.\d+/.test(version)) {
    const found = version === undefined ? 'no `openapi` field' : `openapi: ${JSON.stringify(version)}`;
    throw new ToolError(`kennel reads OpenAPI 3.0 and 3.1 documents; found ${found}`, locate('#/openapi'));
  }
}

async function bundle(absolute: string, raw: unknown, file: string): Promise<unknown> {
  try {
    return await SwaggerParser.bundle(absolute, raw as never, {});
  } catch (error) {
    throw new ToolError(`cannot resolve references: ${(error as Error).message}`, file);
  }
}

async function validate(document: OpenApiDocument, locate: (pointer: string) => string): Promise<OpenApiDocument> {
  try {
    return (await SwaggerParser.validate(document as never)) as unknown as OpenApiDocument;
  } catch (error) {
    throw describeInvalid(error, locate);
  }
}

interface SchemaDetail {
  instancePath?: string;
  message?: string;
}

function describeInvalid(error: unknown, locate: (pointer: string) => string): ToolError {
  const details = (error as { details?: SchemaDetail[] }).details;
  if (Array.isArray(details) && details.length > 0) {
    const first = details[0]!;
    const pointer = `#${first.instancePath ?? ''}`;
    const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
    return new ToolError(
      `not a valid OpenAPI document: ${pointer} ${first.message ?? 'is invalid'}${more}`,
      locate(pointer),
    );
  }
  const message = (error as Error).message ?? String(error);
  const pointer = /"(#\/[^"]*)"/.exec(message)?.[1];
  return new ToolError(
    `not a valid OpenAPI document: ${message.split('\n')[0]}`,
    pointer ? locate(pointer) : locate('#'),
  );
}
