// The state and house style of one Museum deployment: its events and tickets, its fault (if any),
// its variant, and how it writes JSON and problems.
import { jsonReply, Refusal, uuidFor, type Reply } from '../http-kit.js';
import type { MuseumFault } from './faults.js';
import type { MuseumVariant } from './variants.js';

export interface SpecialEvent {
  eventId: string;
  name: string;
  location: string;
  eventDescription: string;
  dates: string[];
  price: number | string;
}

export interface Ticket {
  ticketId: string;
  ticketDate: string;
  ticketType: string;
  eventId?: string;
  email?: string;
  confirmationCode: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  404: 'Not found',
  405: 'Method not allowed',
  500: 'Internal server error',
};

const DAY = 86_400_000;

/** `2031-03-01` for an instant. */
export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export class Museum {
  readonly fault: MuseumFault | undefined;
  readonly variant: MuseumVariant;
  readonly credentials: { user: string; password: string };
  /** Midnight UTC of the day the deployment started: "today" for every default. */
  readonly today: number;
  readonly events: SpecialEvent[];
  readonly tickets = new Map<string, Ticket>();
  eventsMade = 0;
  ticketsMade = 0;

  constructor(credentials: { user: string; password: string }, fault: MuseumFault | undefined, variant: MuseumVariant) {
    this.credentials = credentials;
    this.fault = fault;
    this.variant = variant;
    this.today = Math.floor(Date.now() / DAY) * DAY;
    this.events = seedEvents(this.today);
  }

  on(fault: MuseumFault): boolean {
    return this.fault === fault;
  }

  json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
    const reply = jsonReply(status, value, headers);
    return this.variant.charset ? { ...reply, contentType: 'application/json; charset=utf-8' } : reply;
  }

  /** An error in the document's Error shape (`type`, `title`), as application/problem+json. */
  problem(status: number, detail: string, headers: Record<string, string> = {}): Reply {
    const title = TITLES[status] ?? 'Error';
    const body =
      status === 404 && this.on('error-body-string')
        ? title
        : {
            type: `https://museum.example/problems/${title.toLowerCase().replaceAll(' ', '-')}`,
            title,
            detail,
            ...(this.variant.extraFields ? { status } : {}),
          };
    const contentType = this.on('problem-as-plain-json') ? 'application/json' : 'application/problem+json';
    return { status, headers, body: JSON.stringify(body), contentType };
  }

  badRequest(detail: string): Refusal {
    return new Refusal(this.problem(400, detail));
  }

  notFound(detail: string): Refusal {
    return new Refusal(this.problem(404, detail));
  }

  malformedId(what: string, text: string): Refusal {
    return new Refusal(this.problem(this.variant.malformedIdStatus, `${what} ${JSON.stringify(text)} is not a uuid`));
  }

  nextEventId(): string {
    this.eventsMade += 1;
    return uuidFor(`museum event ${this.eventsMade}`);
  }

  nextTicketId(): string {
    this.ticketsMade += 1;
    return uuidFor(`museum ticket ${this.ticketsMade}`);
  }

  dayAfterToday(days: number): string {
    return isoDate(this.today + days * DAY);
  }
}

const SEED_EVENTS = [
  ['Glass Harmonica Night', 'East Gallery', 'An evening of music played on wet glass.', 12],
  ['Fossil Sleepover', 'Hall of Giants', 'Sleep under the long-necked skeleton. Bring a torch.', 45],
  ['Clockmakers at Work', 'Workshop 2', 'Watch the restorers take apart a 1790 longcase clock.', 8.5],
  ['Maps That Lied', 'Cartography Room', 'Famous errors, phantom islands and the people who drew them.', 10],
  ['Kite Building for Families', 'Courtyard', 'Build and fly a box kite. Materials included.', 6],
  ['Night of the Automata', 'Mechanical Wing', 'Every automaton in the collection wound up at once.', 30],
  ['Tea with the Curator', 'Reading Room', 'Ask anything about the new acquisitions.', 0],
  ['Meteorites Up Close', 'Mineral Hall', 'Hold a piece of another world.', 15.75],
  ['Silent Film and Organ', 'Auditorium', 'A 1926 comedy with live organ accompaniment.', 18],
  ['Textile Detectives', 'Conservation Lab', 'How dyes date a tapestry.', 22],
  ['Lighthouse Lenses', 'Maritime Gallery', 'A Fresnel lens lit for one night only.', 25],
  ['Beetle Drawing Class', 'Natural History Studio', 'Scientific illustration for beginners.', 14],
] as const;

function seedEvents(today: number): SpecialEvent[] {
  return SEED_EVENTS.map(([name, location, eventDescription, price], index) => ({
    eventId: uuidFor(`museum seeded event ${index}`),
    name,
    location,
    eventDescription,
    dates: [isoDate(today + (index * 3 + 1) * DAY), isoDate(today + (index * 3 + 5) * DAY)],
    price,
  }));
}
