// The state and house style of one Cardwall deployment: boards, cards, comments and labels, its
// fault (if any), its variant, and how it writes JSON, errors, entity tags and rate-limit headers.
import { createHash } from 'node:crypto';
import { jsonReply, offsetDateTime, Refusal, utcDateTime, uuidFor, type Reply } from '../http-kit.js';
import type { CardwallFault } from './faults.js';
import type { CardwallVariant } from './variants.js';

export interface Board {
  id: string;
  name: string;
  description: string | null;
  visibility: 'private' | 'team' | 'public';
  state: 'active' | 'archived';
  createdAt: number;
  updatedAt: number;
  version: number;
}

export interface Card {
  id: string;
  boardId: string;
  title: string;
  status: 'todo' | 'doing' | 'done';
  dueAt: number | null;
  labels: string[];
  createdAt: number;
  updatedAt: number;
  version: number;
}

export interface Comment {
  id: string;
  cardId: string;
  body: string;
  author: string;
  createdAt: number;
}

export interface Label {
  key: string;
  name: string;
  color: string;
}

export interface FieldError {
  field: string;
  code: 'missing_field' | 'invalid' | 'too_long' | 'unknown_field';
  message: string;
}

/** The instant the seeded data is dated from. */
const SEED_EPOCH = Date.UTC(2026, 0, 5, 9, 0, 0);
const HOUR = 3_600_000;
export const SEEDED_BOARDS = 45;
export const SEEDED_CARDS = 60;
export const SEEDED_COMMENTS = 15;

export class Cardwall {
  readonly fault: CardwallFault | undefined;
  readonly variant: CardwallVariant;
  readonly apiKey: string;
  /** Boards in creation order (listBoards answers them newest first). */
  readonly boards: Board[] = [];
  /** Cards in creation order; a board's cards keep this order (their position). */
  readonly cards: Card[] = [];
  readonly comments: Comment[] = [];
  /** The board of each deleted card, by card id. */
  readonly deletedCards = new Map<string, string>();
  /** Labels by board id, then key. */
  readonly labels = new Map<string, Map<string, Label>>();
  private made = 0;
  private requests = 0;

  constructor(apiKey: string, fault: CardwallFault | undefined, variant: CardwallVariant) {
    this.apiKey = apiKey;
    this.fault = fault;
    this.variant = variant;
    this.seed();
  }

  on(fault: CardwallFault): boolean {
    return this.fault === fault;
  }

  nextId(kind: string): string {
    this.made += 1;
    return uuidFor(`${this.variant.idSalt} ${kind} ${this.made}`);
  }

  /** A date-time keeping the instant exactly: milliseconds are written when there are any. */
  dateTime(ms: number): string {
    if (this.variant.dateTimes === 'offset') return offsetDateTime(ms, 1);
    return ms % 1000 === 0 ? utcDateTime(ms) : new Date(ms).toISOString();
  }

  /** The rate-limit headers every successful answer carries, with the variant's extras. */
  rateHeaders(): Record<string, string> {
    this.requests += 1;
    if (this.on('rate-limit-headers-missing')) return { ...this.variant.extraHeaders };
    const { rateLimit } = this.variant;
    const reset = Math.ceil(Date.now() / HOUR) * (HOUR / 1000);
    return {
      ...this.variant.extraHeaders,
      'x-ratelimit-limit': String(rateLimit),
      'x-ratelimit-remaining': String(Math.max(0, rateLimit - this.requests)),
      'x-ratelimit-reset': String(reset),
    };
  }

  json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
    return jsonReply(status, value, { ...this.rateHeaders(), ...headers });
  }

  /** An `{"message": ...}` error. */
  error(status: number, message: string, headers: Record<string, string> = {}): Reply {
    const text = this.variant.messages === 'terse' ? message.split(':')[0]! : message;
    if (status === 404 && this.on('error-as-text'))
      return { status, headers: this.variant.extraHeaders, body: 'Not Found', contentType: 'text/plain' };
    const body = { message: text, documentation_url: `https://docs.cardwall.example/errors/${status}` };
    return jsonReply(status, body, { ...this.variant.extraHeaders, ...headers });
  }

  refuse(status: number, message: string): Refusal {
    return new Refusal(this.error(status, message));
  }

  /** A 422 (or, with the fault, 400) listing what is wrong with a body. */
  invalid(errors: FieldError[]): Refusal {
    const status = this.on('validation-as-400') ? 400 : 422;
    const body = this.on('validation-errors-missing')
      ? { message: 'Validation failed' }
      : { message: 'Validation failed', errors };
    return new Refusal(jsonReply(status, body, this.variant.extraHeaders));
  }

  /** The strong entity tag of a resource at its version. */
  etag(id: string, version: number): string {
    if (this.variant.etags === 'version') return `"${id.slice(0, 8)}-v${version}"`;
    return `"${createHash('sha1').update(`${id}/${version}`).digest('base64url')}"`;
  }

  boardCards(boardId: string): Card[] {
    return this.cards.filter((card) => card.boardId === boardId);
  }

  private seed(): void {
    for (let index = 0; index < SEEDED_BOARDS; index++) {
      const at = SEED_EPOCH + index * HOUR;
      this.boards.push({
        id: uuidFor(`${this.variant.idSalt} seeded board ${index}`),
        name: `Team board ${index + 1}`,
        description: index % 3 === 0 ? null : `Work of team ${index + 1}`,
        visibility: (['private', 'team', 'public'] as const)[index % 3]!,
        state: index % 4 === 3 ? 'archived' : 'active',
        createdAt: at,
        updatedAt: at,
        version: 1,
      });
    }
    const busy = this.boards.at(-1)!;
    this.labels.set(busy.id, new Map([['bug', { key: 'bug', name: 'Bug', color: '#dc2626' }]]));
    for (let index = 0; index < SEEDED_CARDS; index++) {
      const at = SEED_EPOCH + (SEEDED_BOARDS + index) * HOUR;
      this.cards.push({
        id: uuidFor(`${this.variant.idSalt} seeded card ${index}`),
        boardId: busy.id,
        title: `Task ${index + 1}`,
        status: (['todo', 'doing', 'done'] as const)[index % 3]!,
        dueAt: index % 2 === 0 ? at + 240 * HOUR : null,
        labels: index % 5 === 0 ? ['bug'] : [],
        createdAt: at,
        updatedAt: at,
        version: 1,
      });
    }
    const talked = this.cards[0]!;
    for (let index = 0; index < SEEDED_COMMENTS; index++) {
      this.comments.push({
        id: uuidFor(`${this.variant.idSalt} seeded comment ${index}`),
        cardId: talked.id,
        body: `Comment ${index + 1}`,
        author: 'Team lead',
        createdAt: talked.createdAt + (index + 1) * HOUR,
      });
    }
  }
}
