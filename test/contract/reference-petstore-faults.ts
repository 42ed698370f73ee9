// The single-fault deployments of the reference Pet Store (reference-petstore.ts), in families
// (reference-petstore/faults/). Each is one realistic violation of the specification (everything
// else stays correct): it names exactly the checks whose error findings a full `kennel check` run
// reports for it, and the hooks through which it bends the correct server (reference-petstore/
// model.ts). mutants.test.ts asserts the checks, so a check that stops catching a fault, or starts
// reporting it, shows by name. A fault whose catching checks depend on timing lists those under
// `sometimes`.
import { AUTH_FAULTS } from './reference-petstore/faults/auth.js';
import { COLLECTION_FAULTS } from './reference-petstore/faults/collections.js';
import { DEPRECATION_FAULTS } from './reference-petstore/faults/deprecation.js';
import { FIDELITY_FAULTS } from './reference-petstore/faults/fidelity.js';
import { FILTER_FAULTS } from './reference-petstore/faults/filters.js';
import { IDENTIFIER_FAULTS } from './reference-petstore/faults/identifiers.js';
import { INVALID_INPUT_FAULTS } from './reference-petstore/faults/invalid-input.js';
import { LIMIT_FAULTS } from './reference-petstore/faults/limits.js';
import { REPRESENTATION_FAULTS } from './reference-petstore/faults/representation.js';
import { SERVER_ERROR_FAULTS } from './reference-petstore/faults/server-errors.js';
import { STATUS_AND_ERROR_FAULTS } from './reference-petstore/faults/statuses.js';
import { VALID_INPUT_FAULTS } from './reference-petstore/faults/valid-input.js';

export type { PetstoreFault } from './reference-petstore/model.js';

/** Every family, by the name the tests print. */
export const FAULT_FAMILIES = {
  auth: AUTH_FAULTS,
  'server-error': SERVER_ERROR_FAULTS,
  'status-and-error': STATUS_AND_ERROR_FAULTS,
  limit: LIMIT_FAULTS,
  filter: FILTER_FAULTS,
  'invalid-input': INVALID_INPUT_FAULTS,
  'valid-input': VALID_INPUT_FAULTS,
  representation: REPRESENTATION_FAULTS,
  fidelity: FIDELITY_FAULTS,
  collection: COLLECTION_FAULTS,
  identifier: IDENTIFIER_FAULTS,
  deprecation: DEPRECATION_FAULTS,
} as const;

export const FAULT_TABLE = [
  ...AUTH_FAULTS,
  ...SERVER_ERROR_FAULTS,
  ...STATUS_AND_ERROR_FAULTS,
  ...LIMIT_FAULTS,
  ...FILTER_FAULTS,
  ...INVALID_INPUT_FAULTS,
  ...VALID_INPUT_FAULTS,
  ...REPRESENTATION_FAULTS,
  ...FIDELITY_FAULTS,
  ...COLLECTION_FAULTS,
  ...IDENTIFIER_FAULTS,
  ...DEPRECATION_FAULTS,
] as const;
