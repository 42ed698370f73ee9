// Clinic's appointments: list (filters, sort, sparse fieldsets), book (server-chosen integer ids,
// 403 for a client-generated one), read (include=patient), update and delete.
import { isUuid, type Incoming, type Reply } from '../http-kit.js';
import { AttributeCheck, expectType, isObject, linkedPatient, readData, type Json } from './body.js';
import { STATUSES, type Appointment, type Clinic } from './context.js';
import { listDocument, queryValue, sorted, sortKeys } from './paging.js';
import { appointmentJson, patientJson } from './resources.js';

const FIELDS = ['starts_at', 'status', 'reason', 'duration_minutes', 'created_at', 'patient'];
const WRITABLE = ['starts_at', 'status', 'reason', 'duration_minutes'];
const FILTERS = ['status', 'patient'];

export function listAppointments(api: Clinic, request: Incoming): Reply {
  const status = filterValue(api, request, 'status');
  if (status !== undefined && !STATUSES.includes(status as Appointment['status']))
    throw badParameter(api, 'filter[status]', `filter[status] must be one of ${STATUSES.join(', ')}`);
  const patient = filterValue(api, request, 'patient');
  if (patient !== undefined && !isUuid(patient)) throw badParameter(api, 'filter[patient]', 'must be a uuid');
  const fields = sparseFields(api, request);
  const keys = sortKeys<Appointment>(api, request, {
    starts_at: (appointment) => appointment.startsAt,
    created_at: (appointment) => appointment.createdAt,
  });
  const matching = api.appointments.filter(
    (appointment) =>
      (status === undefined || appointment.status === status || api.on('filter-status-ignored')) &&
      (patient === undefined || appointment.patientId === patient.toLowerCase()),
  );
  const document = listDocument(api, request, sorted(matching, api.on('sort-ignored') ? [] : keys), {
    write: (appointment) => appointmentJson(api, appointment, fields),
    sizeIgnored: api.on('page-size-ignored'),
  });
  if (api.on('list-meta-missing')) delete document.meta;
  return api.document(200, document);
}

function badParameter(api: Clinic, parameter: string, detail: string) {
  return api.refuse(400, 'Invalid query parameter', detail, { parameter });
}

function filterValue(api: Clinic, request: Incoming, name: string): string | undefined {
  for (const key of request.query.keys()) {
    const match = /^filter\[(.*)\]$/.exec(key);
    if (match && !FILTERS.includes(match[1]!)) throw badParameter(api, key, `Cannot filter on ${match[1]}`);
  }
  return queryValue(api, request, `filter[${name}]`);
}

function sparseFields(api: Clinic, request: Incoming): string[] | undefined {
  const text = queryValue(api, request, 'fields[appointments]');
  if (text === undefined) return undefined;
  const fields = text.split(',');
  const unknown = fields.find((field) => !FIELDS.includes(field));
  if (unknown !== undefined) throw badParameter(api, 'fields[appointments]', `Appointments have no field ${unknown}`);
  return fields;
}

export async function createAppointment(api: Clinic, request: Incoming): Promise<Reply> {
  const data = await readData(api, request);
  expectType(api, data, 'appointments');
  if (data.id !== undefined && !api.on('client-id-accepted'))
    throw api.refuse(403, 'Client-generated ids are not supported', 'Leave out data.id', { pointer: '/data/id' });
  const check = new AttributeCheck(api, data, WRITABLE, { required: true });
  const startsAt = check.dateTime('starts_at', { required: true });
  const status = check.choice('status', ['scheduled', 'confirmed'] as const);
  const reason = check.text('reason', { max: 500, nullable: true });
  const duration = check.integer('duration_minutes', 5, 240);
  check.done(api);
  const patientId = patientOf(api, data, { required: true })!;
  const clientId = typeof data.id === 'string' && /^[1-9]\d{0,8}$/.test(data.id) ? Number(data.id) : undefined;
  const appointment: Appointment = {
    id: clientId ?? api.newAppointmentId(),
    patientId,
    startsAt: startsAt!,
    status: status ?? 'scheduled',
    reason: reason ?? null,
    durationMinutes: duration ?? 30,
    createdAt: Date.now(),
  };
  api.appointments.push(appointment);
  const location: Record<string, string> = api.on('location-missing')
    ? {}
    : { location: api.url(`/appointments/${appointment.id}`) };
  const status201 = api.on('create-appointment-200') ? 200 : 201;
  return api.document(status201, { data: appointmentJson(api, appointment) }, location);
}

/** The patient a document's relationships name (422 when required and missing). */
function patientOf(api: Clinic, data: Json, { required }: { required: boolean }): string | undefined {
  const relationships = data.relationships;
  if (relationships === undefined && !required) return undefined;
  const pointer = '/data/relationships/patient';
  if (!isObject(relationships) || !isObject(relationships.patient))
    throw api.refuse(422, 'Missing relationship', 'An appointment needs its patient', { pointer });
  return linkedPatient(api, relationships.patient.data, `${pointer}/data`);
}

export function getAppointment(api: Clinic, request: Incoming, id: string): Reply {
  const appointment = findAppointment(api, id);
  const include = queryValue(api, request, 'include');
  if (include !== undefined && include !== 'patient')
    throw badParameter(api, 'include', `Cannot include ${include}: only patient`);
  const document: Record<string, unknown> = { data: appointmentJson(api, appointment) };
  if (include === 'patient' && !api.on('include-missing')) {
    const patientId = api.on('included-wrong-patient') ? api.patients[0]!.id : appointment.patientId;
    const patient = api.patients.find((candidate) => candidate.id === patientId);
    document.included = patient ? [patientJson(api, patient)] : [];
  }
  return api.document(200, document);
}

export async function updateAppointment(api: Clinic, request: Incoming, id: string): Promise<Reply> {
  const appointment = findAppointment(api, id);
  const data = await readData(api, request);
  expectType(api, data, 'appointments');
  if (typeof data.id !== 'string') throw api.refuse(400, 'Missing id', 'data.id is required', { pointer: '/data/id' });
  if (data.id !== String(appointment.id) && !api.on('id-mismatch-accepted'))
    throw api.refuse(409, 'Id mismatch', `data.id must be "${appointment.id}"`, { pointer: '/data/id' });
  const check = new AttributeCheck(api, data, WRITABLE);
  const fields: Partial<Appointment> = {
    startsAt: check.dateTime('starts_at'),
    status: api.on('status-enum-unchecked')
      ? (check.raw('status') as Appointment['status'])
      : check.choice('status', STATUSES),
    reason: check.text('reason', { max: 500, nullable: true }),
    durationMinutes: check.integer('duration_minutes', 5, 240),
  };
  check.done(api);
  const patientId = patientOf(api, data, { required: false });
  const kept = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const reset = api.on('patch-resets-attributes') ? { reason: null, durationMinutes: 30 } : {};
  const updated: Appointment = { ...appointment, ...reset, ...kept, ...(patientId ? { patientId } : {}) };
  if (!api.on('appointment-patch-ignored')) Object.assign(appointment, updated);
  return api.document(200, { data: appointmentJson(api, updated) });
}

export function deleteAppointment(api: Clinic, id: string): Reply {
  const appointment = findAppointment(api, id);
  if (!api.on('appointment-delete-keeps')) api.appointments.splice(api.appointments.indexOf(appointment), 1);
  if (api.on('delete-appointment-200')) return api.document(200, { data: appointmentJson(api, appointment) });
  return { status: 204 };
}

/** The appointment `id` names, or a 404 (a malformed id names nothing). */
export function findAppointment(api: Clinic, id: string): Appointment {
  const number = /^[1-9]\d{0,14}$/.test(id) ? Number(id) : undefined;
  const appointment = api.appointments.find((candidate) => candidate.id === number);
  if (!appointment) throw api.refuse(404, 'Not found', `No appointment has the id ${id}`);
  return appointment;
}
