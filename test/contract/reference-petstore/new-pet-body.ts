// How the reference Pet Store reads createPet's body: the media type, the size limit, JSON with
// exact integers, then each field of a new pet. A fault bends a step through its hook.
import type { IncomingMessage } from 'node:http';
import { isInt64, parseJsonExact } from './json.js';
import { BadRequest, bent, type Answers, type FaultHooks, type NewPet } from './model.js';
import { readCategoryId, readName, readStatus } from './readers.js';
import type { Variant } from './variants.js';

const MAX_BODY_BYTES = 1_000_000;

export class NewPetBody {
  constructor(
    private readonly hooks: FaultHooks,
    private readonly variant: Variant,
    private readonly answers: Answers,
  ) {}

  /** The body as JSON: application/json, within the size limit, not empty, well formed. */
  async parsed(req: IncomingMessage): Promise<unknown> {
    return this.parse(await this.text(req));
  }

  private async text(req: IncomingMessage): Promise<string> {
    const header = req.headers['content-type'] ?? '';
    const body = await readBody(req);
    const json = header.split(';')[0]?.trim().toLowerCase() === 'application/json';
    if (!(this.hooks.acceptsMediaType?.(header, json) ?? json)) {
      const code = this.variant.wrongContentType === 415 ? 'unsupported_media_type' : 'invalid_content_type';
      throw new BadRequest(
        this.answers.error(this.variant.wrongContentType, code, 'The request body must be application/json'),
      );
    }
    if (body === undefined)
      throw new BadRequest(
        this.answers.error(413, 'payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes`),
      );
    this.hooks.bodyText?.(body);
    if (body === '') throw this.answers.badRequest('invalid_body', 'A request body is required');
    return body;
  }

  private parse(text: string): unknown {
    try {
      return parseJsonExact(text);
    } catch (thrown) {
      this.hooks.malformedJson?.(thrown);
      throw this.answers.badRequest('invalid_json', 'The request body is not valid JSON');
    }
  }

  /** The fields of a new pet, each read as the document says (or as the fault bends it). */
  newPet(body: unknown): NewPet {
    return bent(this.hooks.newPet, body, (value) => this.readNewPet(value), this.answers);
  }

  private readNewPet(body: unknown): NewPet {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw this.answers.invalidBody('', 'must be a JSON object');
    const fields = body as Record<string, unknown>;
    if (fields.id !== undefined && this.variant.clientId === 'refuse' && !this.hooks.honoursClientId)
      throw this.answers.invalidBody('/id', 'is assigned by the service and must not be sent');
    const clientId = typeof fields.id === 'bigint' && isInt64(fields.id) ? fields.id : undefined;
    const { answers, variant } = this;
    const status = bent(this.hooks.status, fields.status, (value) => readStatus(value, variant, answers), answers);
    return {
      name: bent(this.hooks.name, fields.name, (value) => readName(value, variant, answers), answers),
      categoryId: bent(this.hooks.categoryId, fields.categoryId, (value) => readCategoryId(value, answers), answers),
      ...(status === undefined ? {} : { status }),
      ...(clientId === undefined ? {} : { clientId }),
    };
  }
}

/** The whole body as UTF-8, or undefined when it is larger than MAX_BODY_BYTES (the rest is drained). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}
