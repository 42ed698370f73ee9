// The state and house style of one Clinic deployment: patients and appointments, its fault (if any),
// its variant, and how it writes JSON:API documents, links and errors.
import { offsetDateTime, Refusal, utcDateTime, uuidFor, type Reply } from '../http-kit.js';
import type { ClinicFault } from './faults.js';
import type { ClinicVariant } from './variants.js';

export const JSON_API = 'application/vnd.api+json';
/** The path of the document's server URL (https://api.harbour-clinic.example/v1). */
export const CLINIC_BASE_PATH = '/v1';

export interface Patient {
  id: string;
  name: string;
  birthDate: string;
  email: string | undefined;
  phone: string | null;
  createdAt: number;
  deletedAt: number | null;
}

export const STATUSES = ['scheduled', 'confirmed', 'cancelled', 'completed'] as const;
export type Status = (typeof STATUSES)[number];

export interface Appointment {
  id: number;
  patientId: string;
  startsAt: number;
  status: Status;
  reason: string | null;
  durationMinutes: number;
  createdAt: number;
}

/** A JSON:API error object's source. */
export type Source = { pointer: string } | { parameter: string } | { header: string };

const SEED_EPOCH = Date.UTC(2026, 2, 2, 8, 0, 0);
const FIRST_SLOT = Date.UTC(2031, 0, 6, 9, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SURNAMES = ['Okafor', 'Lindqvist', 'Moreau', 'Abbasi', 'Tanaka', 'Ferreira', 'Novak', 'Hughes', 'Castillo'];
const GIVEN = ['Amara', 'Bjorn', 'Chloe', 'Dariush', 'Emi', 'Joao', 'Katya', 'Liam', 'Marisol', 'Nils', 'Ola'];

export class Clinic {
  readonly fault: ClinicFault | undefined;
  readonly variant: ClinicVariant;
  readonly token: string;
  readonly patients: Patient[] = [];
  readonly appointments: Appointment[] = [];
  /** The origin clients use, for absolute links (set per request). */
  origin = 'http://127.0.0.1';
  private nextAppointment: number;

  constructor(token: string, fault: ClinicFault | undefined, variant: ClinicVariant) {
    this.token = token;
    this.fault = fault;
    this.variant = variant;
    this.nextAppointment = variant.firstAppointmentId;
    this.seed();
  }

  on(fault: ClinicFault): boolean {
    return this.fault === fault;
  }

  newAppointmentId(): number {
    return this.nextAppointment++;
  }

  dateTime(ms: number): string {
    return this.variant.dateTimes === 'offset' ? offsetDateTime(ms, 2) : utcDateTime(ms);
  }

  /** A link to `path` (under the base path, with its query), in the variant's form. */
  link(path: string): string | { href: string } {
    if (this.variant.links === 'path-objects') return { href: `${CLINIC_BASE_PATH}${path}` };
    return `${this.origin}${CLINIC_BASE_PATH}${path}`;
  }

  /** The URL a link names, as a string (for Location). */
  url(path: string): string {
    return `${this.origin}${CLINIC_BASE_PATH}${path}`;
  }

  /** A JSON:API document answer. */
  document(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Reply {
    const value = this.variant.jsonapiMember ? { jsonapi: { version: '1.1' }, ...body } : body;
    const contentType = this.on('media-type-json') ? 'application/json' : JSON_API;
    return { status, headers, body: JSON.stringify(value), contentType };
  }

  /** An errors document with one error. */
  error(status: number, title: string, detail?: string, source?: Source, headers: Record<string, string> = {}): Reply {
    if (status === 404 && this.on('errors-array-missing'))
      return { status, headers, body: JSON.stringify({ error: title }), contentType: JSON_API };
    const words = this.variant.messages === 'terse' ? {} : { detail: detail ?? title };
    const error = {
      status: this.on('error-status-number') ? status : String(status),
      title: this.variant.messages === 'terse' ? title.split(' ')[0] : title,
      ...words,
      ...(source === undefined ? {} : { source }),
    };
    return this.document(status, { errors: [error] }, headers);
  }

  refuse(status: number, title: string, detail?: string, source?: Source): Refusal {
    return new Refusal(this.error(status, title, detail, source));
  }

  /** The registered (not removed) patient with this id, if any. */
  registered(id: string): Patient | undefined {
    return this.patients.find((patient) => patient.id === id.toLowerCase() && patient.deletedAt === null);
  }

  private seed(): void {
    const { seededPatients, seededAppointments, idSalt } = this.variant;
    for (let index = 0; index < seededPatients; index++) {
      const born = Date.UTC(1950 + ((index * 13) % 60), (index * 5) % 12, 1 + ((index * 7) % 28));
      this.patients.push({
        id: uuidFor(`${idSalt} seeded patient ${index}`),
        name: `${GIVEN[(index * 7) % GIVEN.length]} ${SURNAMES[(index * 4) % SURNAMES.length]}`,
        birthDate: new Date(born).toISOString().slice(0, 10),
        email: index % 3 === 0 ? undefined : `patient${index + 1}@example.org`,
        phone: index % 2 === 0 ? null : `+44 20 7946 0${String(100 + index).slice(-3)}`,
        createdAt: SEED_EPOCH + index * HOUR,
        deletedAt: null,
      });
    }
    for (let index = 0; index < seededAppointments; index++) {
      this.appointments.push({
        id: this.newAppointmentId(),
        patientId: this.patients[index % this.patients.length]!.id,
        startsAt: FIRST_SLOT + ((index * 11) % seededAppointments) * DAY,
        status: STATUSES[index % STATUSES.length]!,
        reason: index % 4 === 0 ? null : `Visit ${index + 1}`,
        durationMinutes: [15, 30, 45, 60][index % 4]!,
        createdAt: SEED_EPOCH + (seededPatients + index) * HOUR,
      });
    }
  }
}
