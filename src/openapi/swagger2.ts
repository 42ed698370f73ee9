import { prepareSwagger2, type PrepareNote } from './swagger2-prepare.js';

/** A Swagger 2.0 document converted to OpenAPI 3.0 (with notes on what kennel changed first), or why it could not be. */
export type Converted =
  { ok: true; document: unknown; patches: number; notes: PrepareNote[] } | { ok: false; message: string };

/** True when the document says `swagger: "2.0"`. */
export function isSwagger2(raw: Record<string, unknown>): boolean {
  return raw.swagger === '2.0' || raw.swagger === 2;
}

/**
 * Converts with swagger2openapi (Mermade's oas-kit, the converter most tools use): definitions
 * become components/schemas, body and formData parameters request bodies, `produces`/`consumes`
 * media types. Small faults it can repair are patched (and counted); external `$ref`s are left as
 * written for the loader to bundle. Nothing is fetched.
 */
export async function convertSwagger2(raw: Record<string, unknown>): Promise<Converted> {
  // Loaded on demand: importing the converter costs ~60 ms, which every 3.x start-up would pay.
  const { default: swagger2openapi } = await import('swagger2openapi');
  const copy = structuredClone(raw);
  const notes = prepareSwagger2(copy);
  try {
    const options = await swagger2openapi.convertObj(copy as never, {
      patch: true,
      warnOnly: true,
      resolve: false,
      // A YAML alias (`*ok` reusing `&ok`) parses to one shared object; copying it is what the
      // document means, where the converter's default refuses it.
      anchors: true,
    });
    return {
      ok: true,
      document: options.openapi,
      patches: Number((options as { patches?: number }).patches ?? 0),
      notes,
    };
  } catch (error) {
    return { ok: false, message: (error as Error).message.split('\n')[0]! };
  }
}
