import type { Operation } from '../openapi/operations.js';
import type { HttpResponse } from './http-response.js';
import type { Preferences } from './prefer.js';

/** Who a request acts as: the API key that authenticated it, or null for anonymous operations. */
export type Principal = string | null;

/** A request body as read: its text, its parsed value, and whether one was sent. */
export interface JsonBody {
  text: string;
  value: unknown;
  present: boolean;
  /** The value may hold bigints (unsafe integers): validators then need `exactNumbers`. */
  mayHoldBigInt?: boolean;
}

/** A request after validation: parameters typed by their schemas, defaults applied, body parsed. */
export interface RequestInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: JsonBody;
}

/** What a responder knows of the request besides its validated input. */
export interface RequestContext {
  principal: Principal;
  /** Path relative to the router's prefix (`/pets/1`). */
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  preferences: Preferences;
}

/** The operation a request matched, as the router hands it to a responder. */
export interface RoutedOperation {
  operation: Operation;
}

/**
 * Answers one operation of a document once its request is authenticated and valid: the contract
 * between the spec router (src/mock/routing/spec-router.ts) and what answers it (the mock's resources,
 * the domain simulator's control API).
 */
export type Responder = (
  routed: RoutedOperation,
  input: RequestInput,
  request: RequestContext,
) => HttpResponse | Promise<HttpResponse>;
