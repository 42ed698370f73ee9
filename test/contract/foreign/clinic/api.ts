// The Harbour Clinic API (JSON:API style) as the score and the tests see it: document, deployments, faults.
import { fileURLToPath } from 'node:url';
import type { ForeignApi } from '../fault-catalogue.js';
import { CLINIC_FAULTS, type ClinicFault } from './faults.js';
import { CLINIC_PROBES } from './probes.js';
import { startClinic } from './server.js';
import { CLINIC_VARIANTS } from './variants.js';

const TOKEN = 'clinic-token-2b91c';

export const CLINIC: ForeignApi<ClinicFault> = {
  name: 'clinic',
  document: fileURLToPath(new URL('../../../fixtures/foreign/clinic-jsonapi.yaml', import.meta.url)),
  faults: CLINIC_FAULTS,
  correct: Object.keys(CLINIC_VARIANTS),
  apiKey: TOKEN,
  authorization: `Bearer ${TOKEN}`,
  probes: CLINIC_PROBES,
  start: (options) => startClinic({ ...options, token: TOKEN }),
};
