// The Stagedoor Ticketing API as the score and the tests see it: document, deployments, faults.
import { fileURLToPath } from 'node:url';
import type { ForeignApi } from '../fault-catalogue.js';
import { STAGEDOOR_FAULTS, type StagedoorFault } from './faults.js';
import { STAGEDOOR_PROBES } from './probes.js';
import { startStagedoor } from './server.js';
import { STAGEDOOR_VARIANTS } from './variants.js';

const API_KEY = 'stagedoor-token';

export const STAGEDOOR: ForeignApi<StagedoorFault> = {
  name: 'stagedoor',
  document: fileURLToPath(new URL('../../../fixtures/foreign/stagedoor-tickets.yaml', import.meta.url)),
  faults: STAGEDOOR_FAULTS,
  correct: Object.keys(STAGEDOOR_VARIANTS),
  apiKey: API_KEY,
  authorization: `Bearer ${API_KEY}`,
  probes: STAGEDOOR_PROBES,
  start: (options) => startStagedoor({ ...options, apiKey: API_KEY }),
};
