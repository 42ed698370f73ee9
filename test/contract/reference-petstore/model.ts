// The reference Pet Store's model, shared by the server and its fault tables: the domain, a reply,
// and the hooks through which one fault bends one step of the correct behaviour. A hook gets what
// the step sees and what the correct server would do (a value, or the correct reader to call), and
// returns what the faulty deployment does instead; it may throw, as a crashing deployment does.
import type { Json } from './json.js';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const isPetStatus = (value: unknown): boolean => (PET_STATUSES as readonly unknown[]).includes(value);

export interface Pet {
  id: bigint;
  name: string;
  /** A number only under the faults that let a non-int64 value through. */
  categoryId: bigint | number;
  status?: string;
}
export type NewPet = Omit<Pet, 'id'> & { clientId?: bigint };

export type Operation = 'listPets' | 'createPet' | 'getPet' | 'listStoreOrders';

export interface Reply {
  status: number;
  body: string;
  kind: 'json' | 'text';
  headers?: Record<string, string>;
}

/** A refusal thrown from deep in a request's handling, answered as it is. */
export class BadRequest {
  constructor(readonly reply: Reply) {}
}

/** The server's own refusals, in its Error shape, for hooks that refuse. */
export interface Answers {
  error(status: number, code: string, message: string): Reply;
  /** A 400 `invalid_body` naming the JSON pointer that is wrong. */
  invalidBody(pointer: string, problem: string): BadRequest;
  badRequest(code: string, message: string): BadRequest;
}

/** A reading step: the correct reader, or the fault's hook around it. */
export function bent<I, O>(
  hook: ((input: I, read: (input: I) => O, answers: Answers) => O) | undefined,
  input: I,
  read: (input: I) => O,
  answers: Answers,
): O {
  return hook ? hook(input, read, answers) : read(input);
}

/** What authentication sees of a request: the credentials as the correct parser reads them. */
export interface Credentials {
  operation: Operation;
  header: string | undefined;
  /** The token of an Authorization header in the `<scheme> <token>` form. */
  token: string | undefined;
  /** The token when the scheme is Bearer (in any letter case). */
  bearer: string | undefined;
  scheme: string | undefined;
  apiKey: string;
}

/** A list as listPets is about to cut its page. */
export interface ListRequest {
  /** How many pets match (filter, replication). */
  listed: number;
  filtered: boolean;
  limitGiven: boolean;
}

export type PetJson = Record<string, Json | undefined>;
export interface ErrorJson {
  code: string | undefined;
  message: string;
  status: number;
}

/** Where one fault bends the correct behaviour; each step has at most one hook. */
export interface FaultHooks {
  /** Every request, with the count of requests so far, before routing. */
  request?(count: number): void;
  authorised?(credentials: Credentials, correct: boolean): boolean;
  /** createPet reads and validates its body before it looks at the key. */
  validatesBeforeAuth?: true;
  unauthorised?(header: string | undefined, correct: Reply, answers: Answers): Reply;
  deprecated?(operation: Operation, correct: boolean): boolean;
  sunset?(correct: string): string;

  /** The `limit` values of listPets, read. */
  limit?(values: readonly string[], read: (values: readonly string[]) => number, answers: Answers): number;
  matches?(pet: Pet, status: string, correct: boolean, firstId: bigint): boolean;
  /** The order of a list, replacing the variant's; `request` counts the lists asked for. */
  order?(pets: readonly Pet[], request: number): Pet[];
  /** A list leaves out the pets stored last, this many of them (a replica behind by writes, not time). */
  listLagWrites?: number;
  pageSize?(list: ListRequest, correct: number): number;
  page?(pets: readonly Pet[], correct: Pet[]): Pet[];
  listed?(correct: Pet[]): Pet[];
  listBody?(items: Json[]): Json;
  listText?(correct: string): string;

  acceptsMediaType?(contentType: string, correct: boolean): boolean;
  /** The body text, read and within the size limit. */
  bodyText?(text: string): void;
  malformedJson?(thrown: unknown): void;
  newPet?(body: unknown, read: (body: unknown) => NewPet): NewPet;
  /** A client-sent id is neither ignored nor refused but taken. */
  honoursClientId?: true;
  name?(value: unknown, read: (value: unknown) => string): string;
  categoryId?(value: unknown, read: (value: unknown) => bigint | number): bigint | number;
  status?(value: unknown, read: (value: unknown) => string | undefined, answers: Answers): string | undefined;
  storedName?(name: string): string;
  storedCategoryId?(categoryId: bigint | number): bigint | number;
  /** The pet as it is stored; undefined: not stored at all. */
  stored?(pet: Pet): Pet | undefined;
  /** The store after `pet` is kept. */
  keep?(pet: Pet, correct: Pet[]): Pet[];
  createStatus?: number;
  /** A pause between reading the next id and counting it (two creates at once get the same). */
  assignDelayMs?: number;
  assignedId?(id: bigint, firstId: bigint): bigint;
  location?(id: bigint, correct: Record<string, string>): Record<string, string>;

  petIdText?(text: string): string;
  /** The petId read (undefined: not an int64), before the pet is looked up. */
  petId?(id: bigint | undefined, segment: string): void;
  foundPet?(id: bigint, pets: readonly Pet[], correct: Pet | undefined): Pet | undefined;
  notFound?(id: bigint, correct: Reply, answers: Answers): Reply;

  petJson?(pet: Pet, correct: PetJson, inList: boolean): PetJson;
  errorBody?(correct: ErrorJson): ErrorJson;
  contentType?(reply: Reply, correct: string): string;
}

/** One fault of the reference Pet Store. */
export interface PetstoreFault {
  name: string;
  description: string;
  /** The checks that report it with severity error, every run. */
  checks: readonly string[];
  /** Checks that report it too on some runs only (it depends on timing or request order). */
  sometimes?: readonly string[];
  /** How the deployment goes wrong. */
  hooks: FaultHooks;
}
