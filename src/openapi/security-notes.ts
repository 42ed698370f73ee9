import { pointerOf } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-types.js';
import { HTTP_METHODS, requirementListOf } from './operations.js';

/** A note on the document's security: where, and what kennel makes of it. */
export interface SecurityNote {
  pointer: string;
  message: string;
}

function notesOn(security: unknown, pointer: string, defined: ReadonlySet<string>): SecurityNote[] {
  if (security === undefined) return [];
  const requirements = requirementListOf(security);
  const listed = Array.isArray(security);
  const shape = listed ? [] : [shapeNote(requirements !== undefined, pointer)];
  return [
    ...shape,
    ...(requirements ?? []).flatMap((requirement, index) =>
      Object.keys(requirement)
        .filter((name) => !defined.has(name))
        .map((name) => ({
          pointer: listed ? `${pointer}/${index}` : pointer,
          message:
            `security names the scheme "${name}", which components.securitySchemes does not define: ` +
            'kennel serve and kennel check take it as asking for no credentials',
        })),
    ),
  ];
}

function shapeNote(lone: boolean, pointer: string): SecurityNote {
  return {
    pointer,
    message: lone
      ? 'security is one requirement object, not a list of them: kennel reads it as a list of that one requirement'
      : 'security is not a list of requirement objects: kennel ignores it',
  };
}

/** Security requirements that name schemes the document does not define (each requirement once). */
export function securityNotes(document: OpenApiDocument): SecurityNote[] {
  const defined = new Set(Object.keys(document.components?.securitySchemes ?? {}));
  const notes = notesOn(document.security, '#/security', defined);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (item === null || typeof item !== 'object') continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation === null || typeof operation !== 'object') continue;
      const pointer = `${pointerOf(['paths', path, method])}/security`;
      notes.push(...notesOn((operation as Record<string, unknown>).security, pointer, defined));
    }
  }
  return notes;
}
