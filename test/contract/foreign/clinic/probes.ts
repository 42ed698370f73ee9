// The careful probe of each Clinic fault: what a person reading the document alone would check.
// Each returns the violation it sees, or undefined; every correct deployment passes every probe.
import { expectStatus, expectThat, firstViolation, unknownUuid, type Probe } from '../probe-client.js';
import type { ClinicFault } from './faults.js';
import { CLINIC_BEHAVIOUR_PROBES } from './probes-behaviour.js';
import {
  createAppointment,
  errorsDocument,
  JSON_API,
  jsonApi,
  noToken,
  patchAppointment,
  read,
  withAppointment,
  withPatient,
} from './probe-support.js';

export const CLINIC_PROBES: Record<ClinicFault, Probe> = {
  ...CLINIC_BEHAVIOUR_PROBES,
  'any-token': async (client) =>
    expectStatus(await read(client, '/patients', { authorization: 'Bearer not-issued' }), 401, 'a token not issued'),
  'delete-without-token': (client) =>
    withAppointment(client, async ({ path }) =>
      expectStatus(await jsonApi(client, 'DELETE', path, undefined, noToken), 401, 'a delete without a token'),
    ),
  'relationship-without-token': (client) =>
    withAppointment(client, async ({ path }) =>
      expectStatus(await read(client, `${path}/relationships/patient`, noToken), 401, 'a linkage read without a token'),
    ),
  'www-authenticate-missing': async (client) => {
    const refused = await read(client, '/appointments', noToken);
    return firstViolation(
      expectStatus(refused, 401, 'a list without a token'),
      expectThat(/^Bearer/.test(refused.headers.get('www-authenticate') ?? ''), 'a 401 without a Bearer challenge'),
    );
  },
  'location-missing': (client) =>
    withAppointment(client, async ({ created, id }) => {
      const location = created.headers.get('location');
      if (location === null) return 'a booked appointment without Location';
      const target = await read(client, new URL(location, created.url).href);
      return expectThat(target.status === 200 && target.body?.data?.id === id, `Location ${location} does not read it`);
    }),
  'create-appointment-200': (client) =>
    withPatient(client, async (id) => expectStatus(await createAppointment(client, id), 201, 'createAppointment')),
  'delete-appointment-200': (client) =>
    withAppointment(client, async ({ path }) =>
      expectStatus(await jsonApi(client, 'DELETE', path), 204, 'deleteAppointment'),
    ),
  'soft-delete-204': (client) =>
    withPatient(client, async (id) => {
      const removed = await jsonApi(client, 'DELETE', `/patients/${id}`);
      return firstViolation(
        expectStatus(removed, 200, 'deletePatient'),
        expectThat(typeof removed.body?.data?.attributes?.deleted_at === 'string', 'the removal shows no deleted_at'),
      );
    }),
  'removed-patient-404': (client) =>
    withPatient(client, async (id) => {
      await jsonApi(client, 'DELETE', `/patients/${id}`);
      return expectStatus(await read(client, `/patients/${id}`), 410, 'reading a removed patient');
    }),
  'errors-array-missing': async (client) => {
    const missing = await read(client, `/patients/${unknownUuid()}`);
    return firstViolation(expectStatus(missing, 404, 'an unknown patient'), errorsDocument(missing));
  },
  'error-status-number': async (client) => {
    const missing = await read(client, '/appointments/999999999');
    return firstViolation(expectStatus(missing, 404, 'an unknown appointment'), errorsDocument(missing));
  },
  'validation-as-400': (client) =>
    withPatient(client, async (id) =>
      expectStatus(await createAppointment(client, id, { starts_at: 'next Tuesday' }), 422, 'starts_at next Tuesday'),
    ),
  'malformed-json-500': async (client) => {
    const sent = await client.send('POST', '/appointments', { rawBody: '{"data": ', contentType: JSON_API });
    return expectStatus(sent, 400, 'malformed JSON');
  },
  'id-mismatch-accepted': (client) =>
    withAppointment(client, async ({ id }) =>
      withAppointment(client, async (other) => {
        const patched = await patchAppointment(client, id, { status: 'confirmed' }, other.id);
        return expectStatus(patched, 409, "a PATCH naming another appointment's id");
      }),
    ),
  'media-type-json': async (client) => {
    const listed = await read(client, '/patients');
    return expectThat(listed.mediaType === JSON_API, `a list is labelled ${listed.mediaType}`);
  },
  'birth-date-as-date-time': async (client) => {
    const { body } = await read(client, '/patients');
    const dates = (body?.data ?? []).map((patient: any) => patient.attributes?.birth_date);
    return expectThat(
      dates.length > 0 && dates.every((date: unknown) => typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date)),
      `a birth_date is not a date: ${dates.find((date: unknown) => !/^\d{4}-\d{2}-\d{2}$/.test(String(date)))}`,
    );
  },
  'deleted-at-omitted': (client) =>
    withPatient(client, async (id) => {
      const { body } = await read(client, `/patients/${id}`);
      return expectThat(body?.data?.attributes?.deleted_at === null, 'a registered patient has no deleted_at: null');
    }),
  'appointment-id-number': (client) =>
    withPatient(client, async (id) => {
      const { body } = await createAppointment(client, id);
      return expectThat(typeof body?.data?.id === 'string', `an appointment id is ${typeof body?.data?.id}`);
    }),
};
