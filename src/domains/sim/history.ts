/** One thing that happened in the simulated world, for timelines and the history API (challtestsrv-style). */
export interface HistoryEvent {
  at: number;
  kind: string;
  /** The domain or name it concerns, when there is one. */
  subject?: string;
  summary: string;
  detail?: Record<string, unknown>;
}

/** Append-only, bounded record of events; the oldest go first when full. */
export class History {
  readonly #events: HistoryEvent[] = [];

  constructor(private readonly capacity = 10_000) {}

  add(event: HistoryEvent): void {
    this.#events.push(event);
    if (this.#events.length > this.capacity) this.#events.shift();
  }

  /** Events, optionally only those about `subject` or of `kind`, oldest first. */
  list(filter: { subject?: string; kind?: string; since?: number } = {}): HistoryEvent[] {
    return this.#events.filter(
      (event) =>
        (filter.subject === undefined || event.subject === filter.subject) &&
        (filter.kind === undefined || event.kind.startsWith(filter.kind)) &&
        (filter.since === undefined || event.at >= filter.since),
    );
  }
}
