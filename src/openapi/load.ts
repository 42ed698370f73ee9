import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { packageFile } from '../assets.js';
import { ToolError } from '../core/tool-error.js';
import { dereferenceDocument } from './dereference.js';
import { danglingRefs, shapeFaults, type Fault } from './document-shape.js';
import type { OpenApiDocument } from './openapi-types.js';
import { listOperations, type Operation } from './operations.js';
import { securityNotes } from './security-notes.js';
import { pathKeyNotes, readColonParameters, sourcePointer } from './path-keys.js';
import { schemaDialectOf } from './schema-dialect.js';
import { basePathOf } from './servers.js';
import { convertSwagger2, isSwagger2 } from './swagger2.js';
import { swagger2Pointer } from './swagger2-locations.js';
import { parseYamlSource } from './yaml-source.js';

/** Something imperfect in a document that kennel works around; the CLI prints `warning: <location>: <message>`. */
export interface LoadWarning {
  /** `file:line`. */
  location: string;
  message: string;
}

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
  /** What kennel works around (meta-schema complaints, a Swagger 2.0 conversion, unreadable patterns). */
  warnings: LoadWarning[];
}

/** Meta-schema complaints listed one by one; the rest are counted in one more warning. */
export const MAX_LISTED_COMPLAINTS = 20;

/**
 * Reads an OpenAPI 3.0/3.1 document (or Swagger 2.0, converted), bundles its external references,
 * and checks it. What stops kennel from serving it is a ToolError naming file:line and JSON
 * pointer; what does not (meta-schema complaints included) is a located warning.
 */
export async function loadDocument(file: string): Promise<LoadedDocument> {
  const text = await readText(file);
  const parsed = parseYamlSource(text);
  if (!parsed.ok)
    throw new ToolError(`invalid YAML/JSON: ${parsed.message}`, `${file}:${parsed.line}:${parsed.column}`);
  let raw = topLevel(parsed.source.value, file);
  const warnings: LoadWarning[] = [];
  let locate = (pointer: string): string => `${file}:${parsed.source.lineOf(pointer) ?? 1}`;
  if (isSwagger2(raw)) {
    raw = await fromSwagger2(raw, locate, warnings);
    const original = locate;
    locate = (pointer) => original(swagger2Pointer(pointer));
  }
  checkVersion(raw, locate);
  failOn(danglingRefs(raw), locate);
  const document = (await bundle(isUrl(file) ? file : path.resolve(file), raw, file)) as OpenApiDocument;
  if (!(await validatedAtBuild()).has(documentDigest(document))) {
    failOn(shapeFaults(document), locate);
    warnings.push(...(await complaintsOf(document, locate)));
  }
  const colon = readColonParameters(document);
  if (colon.renamed.size > 0) {
    const before = locate;
    locate = (pointer) => before(sourcePointer(pointer, colon.renamed));
  }
  for (const note of colon.notes)
    warnings.push({ location: locate(note.pointer), message: `${note.pointer}: ${note.message}` });
  for (const note of [...pathKeyNotes(document), ...securityNotes(document), ...schemaDialectOf(document).notes])
    warnings.push({ location: locate(note.pointer), message: `${note.pointer}: ${note.message}` });
  return {
    file,
    document,
    dereferenced: dereferenceDocument(document),
    operations: operationsOf(document, locate),
    basePath: basePathOf(document),
    locate,
    warnings,
  };
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

/** Whether `--spec` names an http(s) URL rather than a file: its `$ref`s then resolve against the URL. */
export function isUrl(file: string): boolean {
  return /^https?:\/\//i.test(file);
}

/** Fetching a document by URL gives up after this long. */
const FETCH_TIMEOUT_MS = 30_000;

async function fetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new ToolError(`cannot fetch the OpenAPI document: ${cause}`, url);
  }
  if (!response.ok) throw new ToolError(`cannot fetch the OpenAPI document: HTTP ${response.status}`, url);
  return response.text();
}

async function readText(file: string): Promise<string> {
  if (isUrl(file)) return fetchText(file);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : (error as Error).message;
    throw new ToolError(`cannot read the OpenAPI document: ${reason}`, file);
  }
}

function topLevel(raw: unknown, file: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ToolError('not an OpenAPI document: the top level must be a mapping', `${file}:1`);
  return raw as Record<string, unknown>;
}

async function fromSwagger2(
  raw: Record<string, unknown>,
  locate: (pointer: string) => string,
  warnings: LoadWarning[],
): Promise<Record<string, unknown>> {
  const converted = await convertSwagger2(raw);
  if (!converted.ok)
    throw new ToolError(
      `cannot convert this Swagger 2.0 document to OpenAPI 3.0: ${converted.message}`,
      locate('#/swagger'),
    );
  const patched = converted.patches > 0 ? `, repairing ${converted.patches} fault(s) on the way` : '';
  warnings.push({
    location: locate('#/swagger'),
    message: `Swagger 2.0 document converted to OpenAPI 3.0 (swagger2openapi)${patched}; later locations name the closest line of the original`,
  });
  for (const note of converted.notes)
    warnings.push({ location: locate(note.pointer), message: `${note.pointer}: ${note.message}` });
  return converted.document as Record<string, unknown>;
}

function checkVersion(raw: Record<string, unknown>, locate: (pointer: string) => string): void {
  const version = raw.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\.\d+/.test(version)) {
    const found = version === undefined ? 'no `openapi` field' : `openapi: ${JSON.stringify(version)}`;
    throw new ToolError(
      `kennel reads OpenAPI 3.0 and 3.1 (and Swagger 2.0) documents; found ${found}`,
      locate('#/openapi'),
    );
  }
}

/** The first fault as a ToolError at its line, the others counted. */
function failOn(faults: readonly Fault[], locate: (pointer: string) => string): void {
  const first = faults[0];
  if (!first) return;
  const more = faults.length > 1 ? ` (and ${faults.length - 1} more)` : '';
  throw new ToolError(
    `not a usable OpenAPI document: ${first.pointer}: ${first.message}${more}`,
    locate(first.pointer),
  );
}

async function complaintsOf(document: OpenApiDocument, locate: (pointer: string) => string): Promise<LoadWarning[]> {
  // Imported here, not at start-up: the shipped documents skip it, and a server keeps what it loads
  // (the meta-schemas of every OpenAPI version, ajv-draft-04).
  const { metaSchemaComplaints } = await import('./meta-schema.js');
  const complaints = metaSchemaComplaints(document);
  const listed = complaints.slice(0, MAX_LISTED_COMPLAINTS).map((complaint) => ({
    location: locate(complaint.pointer),
    message: `not valid OpenAPI ${document.openapi}: ${complaint.pointer} ${complaint.message} (kennel goes on)`,
  }));
  if (complaints.length > MAX_LISTED_COMPLAINTS)
    listed.push({
      location: locate('#'),
      message: `and ${complaints.length - MAX_LISTED_COMPLAINTS} more meta-schema complaints`,
    });
  return listed;
}

/** listOperations trusts the shape checked above; anything it still cannot read is named, not thrown raw. */
function operationsOf(document: OpenApiDocument, locate: (pointer: string) => string): Operation[] {
  try {
    return listOperations(document);
  } catch (error) {
    const pointer = /at (#\S*)/.exec((error as Error).message)?.[1] ?? '#/paths';
    throw new ToolError(`not a usable OpenAPI document: ${(error as Error).message}`, locate(pointer));
  }
}

/**
 * Reference options for a document read from a URL: its `$ref`s are fetched from the same origin
 * only, whatever host the user named (loopback included, which the resolver refuses by default);
 * a reference to another origin is not followed, so a published document cannot make kennel
 * fetch from an internal address of the machine it runs on.
 */
function sameOriginRefs(root: string): object {
  const origin = new URL(root).origin;
  const sameOrigin = (url: string): boolean => {
    try {
      return new URL(url).origin === origin;
    } catch {
      return false;
    }
  };
  return { resolve: { http: { safeUrlResolver: false, canRead: (file: { url: string }) => sameOrigin(file.url) } } };
}

/**
 * True when some `$ref` (anywhere, example data included) names another file or URL. Without one,
 * swagger-parser's bundle returns the document as it is (checked on the 90 such documents of the
 * corpus and the fixtures: deep-equal every time), so it is neither run nor loaded: that saves
 * its start-up time, and its options check reads the global `Headers`, which makes Node compile
 * its bundled undici (+13 MB RSS) in a server that never fetches.
 */
function hasExternalRefs(document: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) return true;
    for (const child of Object.values(node)) stack.push(child);
  }
  return false;
}

async function bundle(absolute: string, raw: unknown, file: string): Promise<unknown> {
  if (!hasExternalRefs(raw)) return raw;
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    return await SwaggerParser.bundle(absolute, raw as never, isUrl(absolute) ? sameOriginRefs(absolute) : {});
  } catch (error) {
    throw new ToolError(`cannot resolve references: ${(error as Error).message.split('\n')[0]}`, file);
  }
}
