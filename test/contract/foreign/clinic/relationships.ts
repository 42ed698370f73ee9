// Clinic's relationship endpoints of an appointment's patient: the linkage (read and replace) and
// the related resource (the patient, removed or not).
import type { Incoming, Reply } from '../http-kit.js';
import { linkedPatient, readData } from './body.js';
import type { Appointment, Clinic } from './context.js';
import { findAppointment } from './appointments.js';
import { patientJson } from './resources.js';

function linkageDocument(api: Clinic, appointment: Appointment, patientId: string): Record<string, unknown> {
  const path = `/appointments/${appointment.id}`;
  return {
    data: { type: 'patients', id: patientId },
    links: { self: api.link(`${path}/relationships/patient`), related: api.link(`${path}/patient`) },
  };
}

export function getPatientRelationship(api: Clinic, id: string): Reply {
  const appointment = findAppointment(api, id);
  const patientId = api.on('relationship-linkage-wrong') ? api.patients[0]!.id : appointment.patientId;
  return api.document(200, linkageDocument(api, appointment, patientId));
}

export async function updatePatientRelationship(api: Clinic, request: Incoming, id: string): Promise<Reply> {
  const appointment = findAppointment(api, id);
  const data = await readData(api, request);
  const patientId = linkedPatient(api, data, '/data');
  if (!api.on('relationship-patch-not-kept')) appointment.patientId = patientId;
  return api.document(200, linkageDocument(api, appointment, patientId));
}

export function getRelatedPatient(api: Clinic, id: string): Reply {
  const appointment = findAppointment(api, id);
  const patient = api.patients.find((candidate) => candidate.id === appointment.patientId);
  if (!patient) throw api.refuse(404, 'Not found', `The patient of appointment ${id} is unknown`);
  return api.document(200, { data: patientJson(api, patient) });
}
