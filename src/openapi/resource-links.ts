import { fragmentToken, valueAt } from './json-pointer.js';
import type { OpenApiDocument, ReferenceObject } from './openapi-types.js';
import type { Operation } from './operations.js';

/** An OpenAPI `links` entry of a response: which operation a response leads to, and with which values. */
export interface ResourceLink {
  /** The operation whose response documents the link. */
  from: string;
  /** The response status it is documented under (`201`). */
  status: string;
  name: string;
  /** The target's operationId, or its operationRef. */
  target: string;
  /** Target parameter → runtime expression (`petId` → `$response.body#/id`). */
  parameters: Record<string, string>;
}

interface LinkObject {
  operationId?: string;
  operationRef?: string;
  parameters?: Record<string, unknown>;
}

function resolved<T>(document: OpenApiDocument, value: unknown): T | undefined {
  let current = value;
  for (let hops = 0; hops < 16; hops += 1) {
    const reference = (current as ReferenceObject | undefined)?.$ref;
    if (typeof reference !== 'string') return current as T;
    if (!reference.startsWith('#')) return undefined;
    current = valueAt(document, reference);
  }
  return undefined;
}

/** The links documented on the responses of `operation`. */
export function linksOf(document: OpenApiDocument, operation: Operation): ResourceLink[] {
  const responses = resolved<Record<string, unknown>>(document, valueAt(document, `${operation.pointer}/responses`));
  if (typeof responses !== 'object' || responses === null) return [];
  return Object.entries(responses).flatMap(([status, raw]) => {
    const response = resolved<{ links?: Record<string, unknown> }>(document, raw);
    return Object.entries(response?.links ?? {}).flatMap(([name, rawLink]) => {
      const link = resolved<LinkObject>(document, rawLink);
      const target = link?.operationId ?? link?.operationRef;
      if (typeof target !== 'string') return [];
      const parameters = Object.fromEntries(
        Object.entries(link?.parameters ?? {}).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      return [{ from: operation.id, status, name, target, parameters }];
    });
  });
}

/** `$response.body#/id` → `id` (a top-level body property), else undefined. */
export function bodyPropertyOf(expression: string): string | undefined {
  const match = /^\$response\.body#\/([^/]+)$/.exec(expression);
  return match ? match[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/** True when `link` targets `operation` (by operationId, or by an operationRef naming its pointer). */
export function linksTo(link: ResourceLink, operation: Operation): boolean {
  if (link.target === operation.operationId) return true;
  const pointer = `#/paths/${fragmentToken(operation.path)}/${operation.method}`;
  return link.target === pointer || link.target.endsWith(pointer);
}
