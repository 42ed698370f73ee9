// A reference server for the Harbour Clinic API, written from its document alone
// (test/fixtures/foreign/clinic-jsonapi.yaml) on plain node:http, state in memory, validating
// strictly as a careful JSON:API server would. It runs correct (a variant) or with exactly one fault.
import { bearerToken, decodeSegment, listen, type Incoming, type Listening, type Reply } from '../http-kit.js';
import {
  createAppointment,
  deleteAppointment,
  getAppointment,
  listAppointments,
  updateAppointment,
} from './appointments.js';
import { Clinic, CLINIC_BASE_PATH, JSON_API } from './context.js';
import { CLINIC_FAULTS, type ClinicFault } from './faults.js';
import { createPatient, deletePatient, getPatient, listPatients, updatePatient } from './patients.js';
import { getPatientRelationship, getRelatedPatient, updatePatientRelationship } from './relationships.js';
import { CLINIC_VARIANTS } from './variants.js';

type Handler = (api: Clinic, request: Incoming, id: string) => Reply | Promise<Reply>;

const ROUTES: readonly { pattern: RegExp; methods: Readonly<Record<string, [string, Handler]>> }[] = [
  {
    pattern: /^\/patients$/,
    methods: {
      GET: ['listPatients', (api, r) => listPatients(api, r)],
      POST: ['createPatient', (api, r) => createPatient(api, r)],
    },
  },
  {
    pattern: /^\/patients\/([^/]+)$/,
    methods: {
      GET: ['getPatient', (api, _r, id) => getPatient(api, id)],
      PATCH: ['updatePatient', (api, r, id) => updatePatient(api, r, id)],
      DELETE: ['deletePatient', (api, _r, id) => deletePatient(api, id)],
    },
  },
  {
    pattern: /^\/appointments$/,
    methods: {
      GET: ['listAppointments', (api, r) => listAppointments(api, r)],
      POST: ['createAppointment', (api, r) => createAppointment(api, r)],
    },
  },
  {
    pattern: /^\/appointments\/([^/]+)$/,
    methods: {
      GET: ['getAppointment', (api, r, id) => getAppointment(api, r, id)],
      PATCH: ['updateAppointment', (api, r, id) => updateAppointment(api, r, id)],
      DELETE: ['deleteAppointment', (api, _r, id) => deleteAppointment(api, id)],
    },
  },
  {
    pattern: /^\/appointments\/([^/]+)\/patient$/,
    methods: { GET: ['getAppointmentPatient', (api, _r, id) => getRelatedPatient(api, id)] },
  },
  {
    pattern: /^\/appointments\/([^/]+)\/relationships\/patient$/,
    methods: {
      GET: ['getAppointmentPatientRelationship', (api, _r, id) => getPatientRelationship(api, id)],
      PATCH: ['updateAppointmentPatientRelationship', (api, r, id) => updatePatientRelationship(api, r, id)],
    },
  },
];

const UNPROTECTED: Partial<Record<ClinicFault, string>> = {
  'delete-without-token': 'deleteAppointment',
  'relationship-without-token': 'getAppointmentPatientRelationship',
};

async function handle(api: Clinic, request: Incoming): Promise<Reply> {
  api.origin = request.origin;
  const route = ROUTES.find((candidate) => candidate.pattern.test(request.path));
  if (!route) return api.error(404, 'Not found', `Nothing at ${request.path}`);
  const entry = route.methods[request.method === 'HEAD' ? 'GET' : request.method];
  if (!entry) {
    const allow = Object.keys(route.methods).join(', ');
    return api.error(405, 'Method not allowed', `${request.method} is not allowed here: use ${allow}`, undefined, {
      allow,
    });
  }
  const [operation, handler] = entry;
  const refusal = authRefusal(api, operation, request.headers.authorization);
  if (refusal) return refusal;
  const [id = ''] = route.pattern.exec(request.path)!.slice(1).map(decodeSegment);
  return handler(api, request, id);
}

function authRefusal(api: Clinic, operation: string, header: string | undefined): Reply | undefined {
  if (api.fault !== undefined && UNPROTECTED[api.fault] === operation) return undefined;
  const token = bearerToken(header);
  if (token !== undefined && (token === api.token || api.on('any-token'))) return undefined;
  const challenge: Record<string, string> = api.on('www-authenticate-missing')
    ? {}
    : { 'www-authenticate': `Bearer realm="harbour-clinic"${token === undefined ? '' : ', error="invalid_token"'}` };
  const detail = token === undefined ? 'An Authorization: Bearer token is required' : 'The token is not valid';
  return api.error(401, 'Unauthorized', detail, { header: 'Authorization' }, challenge);
}

/** Starts a Clinic deployment on a loopback port: the reference, a named variant, or one fault. */
export async function startClinic(
  options: { fault?: ClinicFault; variant?: string; token?: string } = {},
): Promise<Listening> {
  const { fault, variant = 'reference', token = 'clinic-token' } = options;
  if (fault !== undefined && !CLINIC_FAULTS.some((known) => known.name === fault))
    throw new Error(`Unknown Clinic fault ${fault}`);
  const choices = CLINIC_VARIANTS[variant];
  if (!choices) throw new Error(`Unknown Clinic variant ${variant}`);
  const api = new Clinic(token, fault, choices);
  return listen({
    basePath: CLINIC_BASE_PATH,
    handle: (request) => handle(api, request),
    crash: (thrown) => ({
      status: 500,
      body: JSON.stringify({ errors: [{ status: '500', title: thrown instanceof Error ? thrown.message : 'Error' }] }),
      contentType: JSON_API,
    }),
    outside: (path) => api.error(404, 'Not found', `Nothing at ${path}`),
  });
}
