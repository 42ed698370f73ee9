// Clinic's patients: list (removed ones left out), register (client-generated uuid ids taken),
// read (410 once removed), update, and the soft delete.
import { isUuid, type Incoming, type Reply } from '../http-kit.js';
import { AttributeCheck, expectType, readData } from './body.js';
import type { Clinic, Patient } from './context.js';
import { listDocument, sorted, sortKeys } from './paging.js';
import { patientJson } from './resources.js';

const WRITABLE = ['name', 'birth_date', 'email', 'phone'];

export function listPatients(api: Clinic, request: Incoming): Reply {
  const keys = sortKeys<Patient>(api, request, {
    name: (patient) => patient.name,
    birth_date: (patient) => patient.birthDate,
    created_at: (patient) => patient.createdAt,
  });
  const listed = api.patients.filter((patient) => patient.deletedAt === null || api.on('removed-patient-listed'));
  const document = listDocument(api, request, sorted(listed, keys), {
    write: (patient) => patientJson(api, patient, { listed: true }),
    sizeUnbounded: api.on('page-size-above-max'),
  });
  return api.document(200, document);
}

export async function createPatient(api: Clinic, request: Incoming): Promise<Reply> {
  const data = await readData(api, request);
  expectType(api, data, 'patients');
  const id = clientId(api, data.id);
  const check = new AttributeCheck(api, data, WRITABLE, { required: true });
  const fields = patientFields(api, check, { create: true });
  check.done(api);
  const patient: Patient = {
    id: id ?? crypto.randomUUID(),
    name: fields.name!,
    birthDate: fields.birthDate!,
    email: fields.email,
    phone: fields.phone ?? null,
    createdAt: Date.now(),
    deletedAt: null,
  };
  api.patients.push(patient);
  return api.document(201, { data: patientJson(api, patient) }, { location: api.url(`/patients/${patient.id}`) });
}

/** A client-generated id: a uuid nobody has (422 malformed, 409 taken). */
function clientId(api: Clinic, id: unknown): string | undefined {
  if (id === undefined) return undefined;
  if (!isUuid(id)) throw api.refuse(422, 'Invalid id', 'A patient id is a uuid', { pointer: '/data/id' });
  if (api.patients.some((patient) => patient.id === id.toLowerCase()))
    throw api.refuse(409, 'Id taken', `A patient already has the id ${id}`, { pointer: '/data/id' });
  return id.toLowerCase();
}

export function getPatient(api: Clinic, id: string): Reply {
  return api.document(200, { data: readJson(api, findPatient(api, id)) });
}

function readJson(api: Clinic, patient: Patient): Record<string, unknown> {
  const json = patientJson(api, patient);
  if (!api.on('attributes-flattened')) return json;
  const { attributes, ...rest } = json;
  return { ...rest, ...(attributes as Record<string, unknown>) };
}

export async function updatePatient(api: Clinic, request: Incoming, id: string): Promise<Reply> {
  const patient = findPatient(api, id);
  const data = await readData(api, request);
  expectType(api, data, 'patients');
  if (typeof data.id !== 'string') throw api.refuse(400, 'Missing id', 'data.id is required', { pointer: '/data/id' });
  if (data.id.toLowerCase() !== patient.id)
    throw api.refuse(409, 'Id mismatch', `data.id must be ${patient.id}`, { pointer: '/data/id' });
  const check = new AttributeCheck(api, data, WRITABLE, { required: true });
  const fields = patientFields(api, check, { create: false });
  check.done(api);
  Object.assign(patient, fields);
  return api.document(200, { data: patientJson(api, patient) });
}

export function deletePatient(api: Clinic, id: string): Reply {
  const patient = findPatient(api, id);
  patient.deletedAt = Date.now();
  if (api.on('soft-delete-204')) return { status: 204 };
  return api.document(200, { data: patientJson(api, patient) });
}

/** The patient `id` names: 404 when none (or malformed), 410 when removed. */
export function findPatient(api: Clinic, id: string): Patient {
  const patient = isUuid(id) ? api.patients.find((candidate) => candidate.id === id.toLowerCase()) : undefined;
  if (!patient) throw api.refuse(404, 'Not found', `No patient has the id ${id}`);
  if (patient.deletedAt !== null && !api.on('removed-patient-readable')) {
    if (api.on('removed-patient-404')) throw api.refuse(404, 'Not found', `No patient has the id ${id}`);
    throw api.refuse(410, 'Gone', `The patient ${id} was removed`);
  }
  return patient;
}

function patientFields(api: Clinic, check: AttributeCheck, { create }: { create: boolean }): Partial<Patient> {
  const birthDate = api.on('birth-date-unchecked')
    ? (check.raw('birth_date') as string | undefined)
    : check.date('birth_date', { required: create });
  if (api.on('birth-date-unchecked') && create && birthDate === undefined) check.fail('birth_date', 'required');
  const fields: Partial<Patient> = {
    name: check.text('name', { required: create }) ?? undefined,
    birthDate,
    email: check.email('email'),
    phone: check.text('phone', { max: 30, nullable: true }),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
