// How Clinic writes its resource objects: patients and appointments with attributes,
// relationships and links.
import type { Appointment, Clinic, Patient } from './context.js';

export function patientJson(api: Clinic, patient: Patient, { listed = false } = {}): Record<string, unknown> {
  const attributes: Record<string, unknown> = {
    name: patient.name,
    birth_date: api.on('birth-date-as-date-time') ? `${patient.birthDate}T00:00:00Z` : patient.birthDate,
    ...(patient.email === undefined ? {} : { email: patient.email }),
    phone: patient.phone,
    created_at: api.dateTime(patient.createdAt),
    deleted_at: patient.deletedAt === null ? null : api.dateTime(patient.deletedAt),
  };
  if (patient.deletedAt === null && api.on('deleted-at-omitted')) delete attributes.deleted_at;
  const links = { self: api.link(`/patients/${patient.id}`) };
  if (listed && api.on('resource-links-missing')) return { type: 'patients', id: patient.id, attributes };
  return { type: 'patients', id: patient.id, attributes, links };
}

/** An appointment's attributes and relationships, all of them or those `fields` names. */
export function appointmentJson(
  api: Clinic,
  appointment: Appointment,
  fields?: readonly string[],
): Record<string, unknown> {
  const all: Record<string, unknown> = {
    starts_at: api.dateTime(appointment.startsAt),
    status: appointment.status,
    reason: appointment.reason,
    duration_minutes: appointment.durationMinutes,
    created_at: api.dateTime(appointment.createdAt),
  };
  const wanted = (name: string) => fields === undefined || fields.includes(name);
  const attributes = Object.fromEntries(Object.entries(all).filter(([name]) => wanted(name)));
  const path = `/appointments/${appointment.id}`;
  const patient = {
    data: { type: 'patients', id: appointment.patientId },
    links: { self: api.link(`${path}/relationships/patient`), related: api.link(`${path}/patient`) },
  };
  return {
    type: api.on('wrong-type-member') ? 'appointment' : 'appointments',
    id: api.on('appointment-id-number') ? appointment.id : String(appointment.id),
    attributes,
    relationships: wanted('patient') ? { patient } : {},
    links: { self: api.link(path) },
  };
}
