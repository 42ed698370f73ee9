// What the Clinic probes share: JSON:API requests, resources made for a probe, and link reading.
import { expectThat, type ProbeClient, type ProbeRequest, type ProbeResponse, type Verdict } from '../probe-client.js';

export const JSON_API = 'application/vnd.api+json';
const ACCEPT = { accept: JSON_API };

export const PATIENT = { name: 'Probe Patient', birth_date: '1984-02-29', email: 'probe@example.org', phone: null };
export const SLOT = '2031-09-14T10:30:00Z';

export const noToken: ProbeRequest = { authorization: null };

/** A request in JSON:API style (the media type both ways), any method. */
export function jsonApi(
  client: ProbeClient,
  method: string,
  path: string,
  body?: unknown,
  request: ProbeRequest = {},
): Promise<ProbeResponse> {
  return client.send(method, path, {
    ...request,
    ...(body === undefined ? {} : { body, contentType: JSON_API }),
    headers: { ...ACCEPT, ...request.headers },
  });
}

export const read = (client: ProbeClient, path: string, request: ProbeRequest = {}) =>
  jsonApi(client, 'GET', path, undefined, request);

export const createPatient = (client: ProbeClient, attributes: unknown = PATIENT) =>
  jsonApi(client, 'POST', '/patients', { data: { type: 'patients', attributes } });

export const createAppointment = (client: ProbeClient, patientId: string, attributes: unknown = {}) =>
  jsonApi(client, 'POST', '/appointments', {
    data: {
      type: 'appointments',
      attributes: { starts_at: SLOT, reason: 'Probe visit', duration_minutes: 45, ...(attributes as object) },
      relationships: { patient: { data: { type: 'patients', id: patientId } } },
    },
  });

/** Runs `then` with a new patient's id. */
export async function withPatient(client: ProbeClient, then: (id: string) => Promise<Verdict>): Promise<Verdict> {
  const created = await createPatient(client);
  const id = created.body?.data?.id;
  if (created.status !== 201 || typeof id !== 'string') return `createPatient answered ${created.status}`;
  return then(id);
}

/** Runs `then` with a new appointment (of a new patient). */
export function withAppointment(
  client: ProbeClient,
  then: (made: { id: string; path: string; patientId: string; created: ProbeResponse }) => Promise<Verdict>,
): Promise<Verdict> {
  return withPatient(client, async (patientId) => {
    const created = await createAppointment(client, patientId);
    const id = created.body?.data?.id;
    if (created.status !== 201 || (typeof id !== 'string' && typeof id !== 'number'))
      return `createAppointment answered ${created.status}`;
    return then({ id: String(id), path: `/appointments/${String(id)}`, patientId, created });
  });
}

/** A PATCH of an appointment's attributes, as the document's update document. */
export const patchAppointment = (client: ProbeClient, id: string, attributes: unknown, bodyId: string = id) =>
  jsonApi(client, 'PATCH', `/appointments/${id}`, { data: { type: 'appointments', id: bodyId, attributes } });

/** The target of a link (a string or a link object), absolute. */
export function href(link: unknown, base: string): string | undefined {
  const target = typeof link === 'string' ? link : (link as { href?: unknown } | null)?.href;
  return typeof target === 'string' ? new URL(target, base).href : undefined;
}

export const ids = (body: any): string[] => (Array.isArray(body?.data) ? body.data.map((item: any) => item.id) : []);

/** An errors document whose status members equal the HTTP status, as every documented error is. */
export function errorsDocument(response: ProbeResponse): Verdict {
  const errors = response.body?.errors;
  return expectThat(
    response.mediaType === JSON_API &&
      Array.isArray(errors) &&
      errors.length > 0 &&
      errors.every((error: any) => error?.status === String(response.status) && typeof error?.title === 'string'),
    `an error is ${response.mediaType} ${response.text.slice(0, 60)}`,
  );
}

/** Follows links.next from `first` until the last page (at most `max` pages): the pages read. */
export async function allPages(client: ProbeClient, first: ProbeResponse, max = 20): Promise<ProbeResponse[] | string> {
  const pages = [first];
  for (let page = first; pages.length <= max;) {
    const next = href(page.body?.links?.next, page.url);
    if (next === undefined) return pages;
    page = await read(client, next);
    if (page.status !== 200) return `links.next answered ${page.status}`;
    pages.push(page);
  }
  return 'links.next never ends';
}
export type { Verdict };
