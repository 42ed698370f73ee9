// The Redocly Museum API as the score and the tests see it: document, deployments, faults.
import { fileURLToPath } from 'node:url';
import type { ForeignApi } from '../fault-catalogue.js';
import { MUSEUM_FAULTS, type MuseumFault } from './faults.js';
import { MUSEUM_PROBES } from './probes.js';
import { startMuseum } from './server.js';
import { MUSEUM_VARIANTS } from './variants.js';

const API_KEY = 'museum-secret';
/** kennel sends Basic credentials as user `kennel` with the key as password: the account the harness opens. */
const CREDENTIALS = { user: 'kennel', password: API_KEY };

export const MUSEUM: ForeignApi<MuseumFault> = {
  name: 'museum',
  document: fileURLToPath(new URL('../../../fixtures/foreign/redocly-museum.yaml', import.meta.url)),
  faults: MUSEUM_FAULTS,
  correct: Object.keys(MUSEUM_VARIANTS),
  apiKey: API_KEY,
  authorization: `Basic ${Buffer.from(`${CREDENTIALS.user}:${CREDENTIALS.password}`).toString('base64')}`,
  probes: MUSEUM_PROBES,
  start: (options) => startMuseum({ ...options, credentials: CREDENTIALS }),
};
