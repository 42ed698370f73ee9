/** One thing that happened in the simulated world, for timelines and the history API (challtestsrv-style). */
export interface HistoryEvent {
  at: number;
  kind: string;
  /** The domain or name it concerns, when there is one. */
  subject?: string;
  summary: string;
  detail?: Record<string, unknown>;
}

/** A fixed-size ring: adding past `capacity` drops the oldest item, in constant time. */
class Ring<T> {
  readonly #items: T[] = [];
  #start = 0;

  constructor(readonly capacity: number) {}

  add(item: T): void {
    if (this.#items.length < this.capacity) this.#items.push(item);
    else {
      this.#items[this.#start] = item;
      this.#start = (this.#start + 1) % this.capacity;
    }
  }

  get size(): number {
    return this.#items.length;
  }

  /** Oldest first. */
  toArray(): T[] {
    return [...this.#items.slice(this.#start), ...this.#items.slice(0, this.#start)];
  }
}

/** How many events the history keeps by default. */
export const DEFAULT_HISTORY_EVENTS = 10_000;

/** Append-only, bounded record of events; the oldest go first when full. */
export class History {
  readonly #events: Ring<HistoryEvent>;

  constructor(capacity = DEFAULT_HISTORY_EVENTS) {
    this.#events = new Ring(Math.max(1, capacity));
  }

  add(event: HistoryEvent): void {
    this.#events.add(event);
  }

  /** Events, optionally only those about `subject` or of `kind`, oldest first. */
  list(filter: { subject?: string; kind?: string; since?: number } = {}): HistoryEvent[] {
    return this.#events
      .toArray()
      .filter(
        (event) =>
          (filter.subject === undefined || event.subject === filter.subject) &&
          (filter.kind === undefined || event.kind.startsWith(filter.kind)) &&
          (filter.since === undefined || event.at >= filter.since),
      );
  }
}

/** One question a resolver answered, as the query log keeps it. */
export interface QueryLogEntry {
  at: number;
  resolver: string;
  name: string;
  type: string;
  rcode: string;
  fromCache: boolean;
  /** How many records the answer section held. */
  answers: number;
}

/** How many questions the query log keeps by default. */
export const DEFAULT_QUERY_LOG_ENTRIES = 1_000;

/**
 * The DNS questions resolvers answered (dig, the control API, every packet the live DNS server
 * answers), apart from the history so a stream of queries cannot push the world's events out of
 * it. Bounded: the oldest questions go first.
 */
export class QueryLog {
  readonly #entries: Ring<QueryLogEntry>;

  constructor(capacity = DEFAULT_QUERY_LOG_ENTRIES) {
    this.#entries = new Ring(Math.max(1, capacity));
  }

  get capacity(): number {
    return this.#entries.capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  add(entry: QueryLogEntry): void {
    this.#entries.add(entry);
  }

  /** Questions, optionally only for `name`, to `resolver`, answered `rcode`, or from `since` on; oldest first. */
  list(filter: { name?: string; resolver?: string; rcode?: string; since?: number } = {}): QueryLogEntry[] {
    return this.#entries
      .toArray()
      .filter(
        (entry) =>
          (filter.name === undefined || entry.name === filter.name) &&
          (filter.resolver === undefined || entry.resolver === filter.resolver) &&
          (filter.rcode === undefined || entry.rcode === filter.rcode) &&
          (filter.since === undefined || entry.at >= filter.since),
      );
  }
}
