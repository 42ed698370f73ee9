// The Clinic probes of behaviour: envelopes, pagination, negative inputs, state and references.
import { expectStatus, expectThat, firstViolation, unknownUuid, type Probe } from '../probe-client.js';
import {
  allPages,
  createAppointment,
  createPatient,
  href,
  ids,
  jsonApi,
  patchAppointment,
  read,
  withAppointment,
  withPatient,
} from './probe-support.js';

const byStartsAt = (body: any): number[] =>
  (body?.data ?? []).map((item: any) => Date.parse(item.attributes?.starts_at));

export const CLINIC_BEHAVIOUR_PROBES = {
  'list-meta-missing': async (client) => {
    const { body } = await read(client, '/appointments');
    return expectThat(Number.isInteger(body?.meta?.total), `meta.total is ${body?.meta?.total}`);
  },
  'wrong-type-member': async (client) => {
    const { body } = await read(client, '/appointments');
    const types = new Set((body?.data ?? []).map((item: any) => item.type));
    return expectThat(types.size === 1 && types.has('appointments'), `appointments typed ${[...types].join(', ')}`);
  },
  'attributes-flattened': (client) =>
    withPatient(client, async (id) => {
      const { body } = await read(client, `/patients/${id}`);
      return expectThat(typeof body?.data?.attributes?.name === 'string', 'a patient read has no attributes.name');
    }),
  'resource-links-missing': async (client) => {
    const listed = await read(client, '/patients');
    const selfs = (listed.body?.data ?? []).map((item: any) => href(item.links?.self, listed.url));
    return expectThat(selfs.length > 0 && selfs.every(Boolean), 'a listed patient has no links.self');
  },
  'next-on-last-page': async (client) => {
    const pages = await allPages(client, await read(client, '/patients', { query: { 'page[size]': 10 } }));
    if (typeof pages === 'string') return pages;
    return expectThat(ids(pages.at(-1)!.body).length > 0, 'links.next led to an empty page');
  },
  'next-repeats-page': async (client) => {
    const first = await read(client, '/patients', { query: { 'page[size]': 10 } });
    const next = href(first.body?.links?.next, first.url);
    if (next === undefined) return 'page 1 of 10 patients has no next link';
    const seen = ids(first.body);
    const second = ids((await read(client, next)).body);
    return expectThat(second.length > 0 && second.every((id) => !seen.includes(id)), 'links.next repeats page 1');
  },
  'page-size-ignored': async (client) => {
    const { body } = await read(client, '/appointments', { query: { 'page[size]': 7 } });
    return expectThat(ids(body).length === 7, `page[size]=7 lists ${ids(body).length} appointments`);
  },
  'total-is-page-count': async (client) => {
    const first = await read(client, '/appointments', { query: { 'page[size]': 5 } });
    const pages = await allPages(client, first);
    if (typeof pages === 'string') return pages;
    const counted = pages.reduce((sum, page) => sum + ids(page.body).length, 0);
    return expectThat(first.body?.meta?.total === counted, `meta.total ${first.body?.meta?.total}, listed ${counted}`);
  },
  'sort-ignored': async (client) => {
    const { body } = await read(client, '/appointments', { query: { sort: '-starts_at', 'page[size]': 50 } });
    const starts = byStartsAt(body);
    const descending = starts.every((start, index) => index === 0 || starts[index - 1]! >= start);
    return expectThat(starts.length > 1 && descending, 'sort=-starts_at is not by starts_at descending');
  },
  'client-id-accepted': (client) =>
    withPatient(client, async (patientId) => {
      const made = await jsonApi(client, 'POST', '/appointments', {
        data: {
          type: 'appointments',
          id: '900001',
          attributes: { starts_at: '2031-09-14T10:30:00Z' },
          relationships: { patient: { data: { type: 'patients', id: patientId } } },
        },
      });
      return expectStatus(made, 403, 'an appointment with a client-generated id');
    }),
  'status-enum-unchecked': (client) =>
    withAppointment(client, async ({ id }) =>
      expectStatus(await patchAppointment(client, id, { status: 'pending' }), 422, 'status pending'),
    ),
  'birth-date-unchecked': async (client) =>
    expectStatus(
      await createPatient(client, { name: 'Date Probe', birth_date: '10/12/1985' }),
      422,
      'birth_date 10/12/1985',
    ),
  'page-size-above-max': async (client) =>
    expectStatus(await read(client, '/patients', { query: { 'page[size]': 500 } }), 400, 'page[size]=500'),
  'unknown-sort-accepted': async (client) =>
    expectStatus(await read(client, '/appointments', { query: { sort: 'price' } }), 400, 'sort=price'),
  'appointment-patch-ignored': (client) =>
    withAppointment(client, async ({ id, path }) => {
      await patchAppointment(client, id, { status: 'confirmed' });
      const { body } = await read(client, path);
      return expectThat(body?.data?.attributes?.status === 'confirmed', 'the new status is not kept');
    }),
  'patch-resets-attributes': (client) =>
    withAppointment(client, async ({ id, path }) => {
      await patchAppointment(client, id, { status: 'confirmed' });
      const { attributes } = (await read(client, path)).body?.data ?? {};
      return expectThat(
        attributes?.reason === 'Probe visit' && attributes?.duration_minutes === 45,
        `attributes left out changed: reason ${attributes?.reason}, ${attributes?.duration_minutes} minutes`,
      );
    }),
  'appointment-delete-keeps': (client) =>
    withAppointment(client, async ({ path }) => {
      await jsonApi(client, 'DELETE', path);
      return expectStatus(await read(client, path), 404, 'reading a deleted appointment');
    }),
  'removed-patient-listed': (client) =>
    withPatient(client, async (id) => {
      await jsonApi(client, 'DELETE', `/patients/${id}`);
      const pages = await allPages(client, await read(client, '/patients', { query: { 'page[size]': 50 } }));
      if (typeof pages === 'string') return pages;
      return expectThat(!pages.some((page) => ids(page.body).includes(id)), 'a removed patient is listed');
    }),
  'removed-patient-readable': (client) =>
    withPatient(client, async (id) => {
      await jsonApi(client, 'DELETE', `/patients/${id}`);
      const again = await read(client, `/patients/${id}`);
      return expectThat(again.status !== 200, 'a removed patient still reads 200');
    }),
  'relationship-patch-not-kept': (client) =>
    withAppointment(client, async ({ path }) =>
      withPatient(client, async (other) => {
        const linkage = { data: { type: 'patients', id: other } };
        await jsonApi(client, 'PATCH', `${path}/relationships/patient`, linkage);
        const { body } = await read(client, `${path}/relationships/patient`);
        return expectThat(body?.data?.id === other, `the linkage reads back ${body?.data?.id}`);
      }),
    ),
  'include-missing': (client) =>
    withAppointment(client, async ({ path, patientId }) => {
      const { body } = await read(client, path, { query: { include: 'patient' } });
      return expectThat(
        Array.isArray(body?.included) && body.included.some((item: any) => item.id === patientId),
        'include=patient has no included patient',
      );
    }),
  'included-wrong-patient': (client) =>
    withAppointment(client, async ({ path, patientId }) => {
      const { body } = await read(client, path, { query: { include: 'patient' } });
      const included = (body?.included ?? []).map((item: any) => item.id);
      return expectThat(
        included.length === 1 && included[0] === patientId,
        `included ${included.join(', ')} for ${patientId}`,
      );
    }),
  'relationship-linkage-wrong': (client) =>
    withAppointment(client, async ({ path, patientId }) => {
      const { body } = await read(client, `${path}/relationships/patient`);
      return expectThat(body?.data?.id === patientId, `the linkage names ${body?.data?.id}, not ${patientId}`);
    }),
  'unknown-patient-accepted': async (client) =>
    expectStatus(await createAppointment(client, unknownUuid()), 404, 'an appointment for an unknown patient'),
  'filter-status-ignored': async (client) => {
    const { body } = await read(client, '/appointments', { query: { 'filter[status]': 'cancelled' } });
    const statuses = (body?.data ?? []).map((item: any) => item.attributes?.status);
    return firstViolation(
      expectThat(statuses.length > 0, 'no cancelled appointment is listed'),
      expectThat(
        statuses.every((status: unknown) => status === 'cancelled'),
        `filter[status]=cancelled lists ${statuses.join(',')}`,
      ),
    );
  },
} satisfies Record<string, Probe>;
