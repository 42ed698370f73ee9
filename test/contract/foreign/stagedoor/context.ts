// The state and house style of one Stagedoor deployment: its data, its fault (if any), its variant,
// and how it writes JSON, problems and date-times.
import { jsonReply, offsetDateTime, Refusal, utcDateTime, type Reply } from '../http-kit.js';
import { seedPerformances, seedVenues, type Performance, type Venue } from './catalogue-data.js';
import type { StagedoorFault } from './faults.js';
import type { StagedoorVariant } from './variants.js';

export interface Reservation {
  id: string;
  performanceId: string;
  seats: number;
  holder?: { name: string; email: string };
  status: 'held' | 'paid';
  total: { amount: number; currency: string };
  createdAt: number;
  /** The offset its date-times are shown at (the venue's), under the variant that shows local times. */
  utcOffsetHours: number;
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  422: 'Unprocessable content',
  500: 'Internal server error',
};

export const HOLD_MS = 15 * 60_000;

export class Stagedoor {
  readonly fault: StagedoorFault | undefined;
  readonly variant: StagedoorVariant;
  readonly apiKey: string;
  readonly venues: Venue[] = seedVenues();
  readonly performances: Performance[] = seedPerformances(this.venues);
  readonly reservations = new Map<string, Reservation>();
  /** Reservations cancelled so far, kept only for the fault that still takes their payment. */
  readonly cancelled = new Map<string, Reservation>();
  reservationsMade = 0;
  paymentsMade = 0;
  private rateLimitRemaining = 10_000;

  constructor(apiKey: string, fault: StagedoorFault | undefined, variant: StagedoorVariant) {
    this.apiKey = apiKey;
    this.fault = fault;
    this.variant = variant;
  }

  on(fault: StagedoorFault): boolean {
    return this.fault === fault;
  }

  nextRateLimitRemaining(): number {
    this.rateLimitRemaining = Math.max(0, this.rateLimitRemaining - 1);
    return this.rateLimitRemaining;
  }

  json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
    const reply = jsonReply(status, value, headers);
    return this.variant.charset ? { ...reply, contentType: 'application/json; charset=utf-8' } : reply;
  }

  /** An RFC 9457 problem, as this deployment (or its fault) writes it. */
  problem(status: number, detail: string, headers: Record<string, string> = {}): Reply {
    const slug = (TITLES[status] ?? 'Error').toLowerCase().replaceAll(' ', '-');
    const body = {
      type: `https://problems.stagedoor.example/${slug}`,
      ...(this.on('problem-without-title') ? {} : { title: TITLES[status] ?? 'Error' }),
      status: this.on('problem-status-mismatch') ? 400 : status,
      detail,
    };
    const contentType = this.on('problem-as-plain-json') ? 'application/json' : 'application/problem+json';
    return { status, headers, body: JSON.stringify(body), contentType };
  }

  refuse(status: number, detail: string): Refusal {
    return new Refusal(this.problem(status, detail));
  }

  badRequest(detail: string): Refusal {
    return this.refuse(400, detail);
  }

  /** A body field of the wrong type or out of range: 400 or 422, both documented. */
  invalidField(detail: string): Refusal {
    return this.refuse(this.variant.invalidFieldStatus, detail);
  }

  /** A path id that is not a uuid. */
  malformedId(what: string, text: string): Refusal {
    return this.refuse(this.variant.malformedIdStatus, `${what} ${JSON.stringify(text)} is not a uuid`);
  }

  dateTime(ms: number, utcOffsetHours: number): string {
    return this.variant.dateTimes === 'utc' ? utcDateTime(ms) : offsetDateTime(ms, utcOffsetHours);
  }

  venueOf(performance: Performance): Venue {
    return this.venues.find((venue) => venue.id === performance.venueId)!;
  }
}
