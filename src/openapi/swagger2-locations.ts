/** Where the OpenAPI 3.0 pointers of a converted Swagger 2.0 document came from, for line numbers. */
const MOVED: [string, string][] = [
  ['#/components/schemas/', '#/definitions/'],
  ['#/components/parameters/', '#/parameters/'],
  ['#/components/responses/', '#/responses/'],
  ['#/components/securitySchemes/', '#/securityDefinitions/'],
];

/** `#/components/schemas/Pet/properties/id` → `#/definitions/Pet/properties/id`; paths stay as they are. */
export function swagger2Pointer(pointer: string): string {
  for (const [now, before] of MOVED) if (pointer.startsWith(now)) return before + pointer.slice(now.length);
  if (pointer === '#/openapi') return '#/swagger';
  return pointer;
}
