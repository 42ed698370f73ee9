import { targetOf } from './dereference.js';
import { fragmentToken, pointerOf, valueAt } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-types.js';
import { HTTP_METHODS } from './operations.js';

/** Something that stops kennel from serving a document, located by JSON pointer. */
export interface Fault {
  pointer: string;
  message: string;
}

const PARAMETER_LOCATIONS = ['query', 'header', 'path', 'cookie'];

type Json = Record<string, unknown>;

function isMapping(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The faults kennel cannot work around in a bundled document: `$ref`s that point nowhere, and the
 * structure it reads (paths, operations, parameters, request bodies, responses, security schemes,
 * servers) of the wrong kind. Everything else the meta-schema dislikes is only a warning.
 */
export function shapeFaults(document: OpenApiDocument): Fault[] {
  const faults: Fault[] = [...danglingRefs(document)];
  const add = (pointer: string, message: string): void => void faults.push({ pointer, message });
  const resolved = (value: unknown, pointer: string): { value: unknown; pointer: string } => {
    let current = value;
    let where = pointer;
    for (let hops = 0; isMapping(current) && typeof current.$ref === 'string' && hops < 32; hops += 1) {
      where = current.$ref;
      current = current.$ref.startsWith('#') ? valueAt(document, current.$ref) : undefined;
    }
    return { value: current, pointer: where };
  };
  checkServers(document, add);
  checkSecuritySchemes(document, add, resolved);
  if (document.paths === undefined) return faults;
  if (!isMapping(document.paths)) return [...faults, { pointer: '#/paths', message: 'must be a mapping of paths' }];
  for (const [path, rawItem] of Object.entries(document.paths)) {
    const itemPointer = pointerOf(['paths', path]);
    if (!path.startsWith('/')) add(itemPointer, `path ${JSON.stringify(path)} must start with "/"`);
    const item = resolved(rawItem, itemPointer);
    if (!isMapping(item.value)) {
      add(itemPointer, 'a path item must be a mapping');
      continue;
    }
    checkParameters(item.value.parameters, `${item.pointer}/parameters`, add, resolved);
    for (const method of HTTP_METHODS) {
      if (!(method in item.value)) continue;
      const operation = item.value[method];
      const at = `${item.pointer}/${method}`;
      if (!isMapping(operation)) add(at, 'an operation must be a mapping');
      else checkOperation(operation, at, add, resolved);
    }
  }
  return faults;
}

type Add = (pointer: string, message: string) => void;
type Resolve = (value: unknown, pointer: string) => { value: unknown; pointer: string };

function checkOperation(operation: Json, at: string, add: Add, resolved: Resolve): void {
  checkParameters(operation.parameters, `${at}/parameters`, add, resolved);
  if (operation.requestBody !== undefined) {
    const body = resolved(operation.requestBody, `${at}/requestBody`);
    if (!isMapping(body.value)) add(body.pointer, 'a request body must be a mapping');
    else checkContent(body.value.content, `${body.pointer}/content`, add);
  }
  if (operation.responses === undefined) return;
  if (!isMapping(operation.responses)) return add(`${at}/responses`, 'must be a mapping of status codes');
  for (const [status, raw] of Object.entries(operation.responses)) {
    const response = resolved(raw, `${at}/responses/${fragmentToken(status)}`);
    if (!isMapping(response.value)) add(response.pointer, 'a response must be a mapping');
    else {
      checkContent(response.value.content, `${response.pointer}/content`, add);
      if (response.value.headers !== undefined && !isMapping(response.value.headers))
        add(`${response.pointer}/headers`, 'must be a mapping of header names');
    }
  }
}

function checkParameters(list: unknown, at: string, add: Add, resolved: Resolve): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) return add(at, 'must be a list of parameters');
  list.forEach((raw, index) => {
    const parameter = resolved(raw, `${at}/${index}`);
    const value = parameter.value;
    if (!isMapping(value)) return add(parameter.pointer, 'a parameter must be a mapping');
    if (typeof value.name !== 'string') add(parameter.pointer, 'a parameter needs a `name`');
    if (!PARAMETER_LOCATIONS.includes(value.in as string))
      add(parameter.pointer, `a parameter's \`in\` must be one of ${PARAMETER_LOCATIONS.join(', ')}`);
  });
}

function checkContent(content: unknown, at: string, add: Add): void {
  if (content === undefined) return;
  if (!isMapping(content)) return add(at, 'must be a mapping of media types');
  for (const [mediaType, media] of Object.entries(content))
    if (!isMapping(media)) add(`${at}/${fragmentToken(mediaType)}`, 'a media type entry must be a mapping');
}

function checkServers(document: OpenApiDocument, add: Add): void {
  if (document.servers === undefined) return;
  if (!Array.isArray(document.servers)) return add('#/servers', 'must be a list of servers');
  document.servers.forEach((server, index) => {
    if (!isMapping(server) || typeof server.url !== 'string') add(`#/servers/${index}`, 'a server needs a `url`');
  });
}

function checkSecuritySchemes(document: OpenApiDocument, add: Add, resolved: Resolve): void {
  const schemes = document.components?.securitySchemes;
  if (schemes === undefined) return;
  if (!isMapping(schemes)) return add('#/components/securitySchemes', 'must be a mapping of schemes');
  for (const [name, raw] of Object.entries(schemes)) {
    const scheme = resolved(raw, `#/components/securitySchemes/${fragmentToken(name)}`);
    if (!isMapping(scheme.value) || typeof scheme.value.type !== 'string')
      add(scheme.pointer, 'a security scheme needs a `type`');
  }
}

/** Keys whose values are example data, where a `$ref` is just data. */
const DATA_KEYS = new Set(['example', 'value', 'default', 'enum', 'const']);

/** Every local `$ref` whose target does not exist (outside example data). */
export function danglingRefs(document: unknown): Fault[] {
  const faults: Fault[] = [];
  const stack: { node: unknown; pointer: string }[] = [{ node: document, pointer: '#' }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && !refExists(document, ref))
      faults.push({ pointer, message: `$ref ${JSON.stringify(ref)} points at nothing in the document` });
    for (const [key, child] of Object.entries(node))
      if (!DATA_KEYS.has(key)) stack.push({ node: child, pointer: `${pointer}/${fragmentToken(key)}` });
  }
  return faults.reverse();
}

function refExists(document: unknown, ref: string): boolean {
  return targetOf(document, ref) !== undefined;
}
