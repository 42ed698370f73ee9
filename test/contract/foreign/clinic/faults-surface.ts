// The Clinic faults of the surface: auth, status codes, errors, headers and content (see faults.ts).
// Each is one clear violation of test/fixtures/foreign/clinic-jsonapi.yaml and declares the checks
// that must catch it, and whether kennel check catches it today or what capability it waits for.
import type { FaultSpec } from '../fault-catalogue.js';

export const SURFACE_FAULTS = [
  // --- auth (Authorization: Bearer on every operation) -----------------------------------------------
  {
    name: 'any-token',
    family: 'auth',
    description: 'Any bearer token is accepted, not only the one the clinic issued',
    checks: ['auth-enforced', 'auth-before-validation'],
    caughtToday: true,
  },
  {
    name: 'delete-without-token',
    family: 'auth',
    description: 'deleteAppointment works without an Authorization header',
    checks: ['auth-enforced'],
    caughtToday: true,
  },
  {
    name: 'relationship-without-token',
    family: 'auth',
    description: 'getAppointmentPatientRelationship answers 200 without an Authorization header',
    checks: ['auth-enforced', 'auth-before-validation'],
    caughtToday: true,
    caughtBy: ['auth-enforced'],
  },
  // --- headers --------------------------------------------------------------------------------------
  {
    name: 'www-authenticate-missing',
    family: 'headers',
    description: 'A 401 has no WWW-Authenticate header (the Unauthorized response requires it)',
    checks: ['auth-challenge-present', 'response-headers-conformance'],
    caughtToday: true,
  },
  {
    name: 'location-missing',
    family: 'headers',
    description: 'createAppointment answers 201 without the required Location header',
    checks: ['response-headers-conformance'],
    caughtToday: true,
  },
  // --- status codes -------------------------------------------------------------------------------
  {
    name: 'create-appointment-200',
    family: 'status',
    description: 'createAppointment answers 200 instead of 201',
    checks: ['status-code-conformance'],
    caughtToday: true,
  },
  {
    name: 'delete-appointment-200',
    family: 'status',
    description: 'deleteAppointment answers 200 with the appointment instead of 204',
    checks: ['status-code-conformance'],
    caughtToday: true,
  },
  {
    name: 'soft-delete-204',
    family: 'status',
    description: 'deletePatient answers 204 without a body instead of 200 with the removed patient',
    checks: ['status-code-conformance'],
    caughtToday: true,
  },
  {
    name: 'removed-patient-404',
    family: 'status',
    description: 'A removed patient reads 404 instead of the documented 410 Gone',
    checks: ['status-code-conformance', 'resource-lifecycle'],
    caughtToday: false,
    waitsFor: 'verdicts',
  },
  // --- errors ---------------------------------------------------------------------------------------
  {
    name: 'errors-array-missing',
    family: 'errors',
    description: 'A 404 answers {"error": "..."} without the required `errors` array',
    checks: ['response-schema-conformance', 'error-body-conformance'],
    caughtToday: true,
    caughtBy: ['response-schema-conformance'],
  },
  {
    name: 'error-status-number',
    family: 'errors',
    description: 'Error objects carry `status` as a number (404) instead of a string ("404")',
    checks: ['response-schema-conformance', 'error-body-conformance'],
    caughtToday: true,
    caughtBy: ['response-schema-conformance'],
  },
  {
    name: 'validation-as-400',
    family: 'errors',
    description: 'An attribute that breaks its schema answers 400 instead of 422',
    checks: ['negative-data-rejection'],
    caughtToday: false,
    waitsFor: 'negative-inputs',
  },
  {
    name: 'malformed-json-500',
    family: 'errors',
    description: 'createAppointment answers malformed JSON with 500 instead of 400',
    checks: ['not-a-server-error'],
    caughtToday: true,
  },
  {
    name: 'id-mismatch-accepted',
    family: 'errors',
    description: "updateAppointment with another appointment's id in the body answers 200 instead of 409",
    checks: ['negative-data-rejection'],
    caughtToday: true,
  },
  // --- content --------------------------------------------------------------------------------------
  {
    name: 'media-type-json',
    family: 'content',
    description: 'Answers are labelled application/json instead of application/vnd.api+json',
    checks: ['content-type-conformance'],
    caughtToday: true,
  },
  {
    name: 'birth-date-as-date-time',
    family: 'content',
    description: 'Patients carry birth_date as a date-time (`1985-12-10T00:00:00Z`), not a date',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'deleted-at-omitted',
    family: 'content',
    description: 'Registered patients leave out the required `deleted_at` instead of giving null',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'appointment-id-number',
    family: 'content',
    description: 'Appointments carry `id` as a JSON number (42) instead of a string ("42")',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
] as const satisfies readonly FaultSpec[];
