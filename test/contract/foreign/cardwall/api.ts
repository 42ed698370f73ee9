// The Cardwall Kanban API as the score and the tests see it: document, deployments, faults.
import { fileURLToPath } from 'node:url';
import type { ForeignApi } from '../fault-catalogue.js';
import { CARDWALL_FAULTS, type CardwallFault } from './faults.js';
import { CARDWALL_PROBES } from './probes.js';
import { startCardwall } from './server.js';
import { CARDWALL_VARIANTS } from './variants.js';

const API_KEY = 'cardwall-key-7f3a';

export const CARDWALL: ForeignApi<CardwallFault> = {
  name: 'cardwall',
  document: fileURLToPath(new URL('../../../fixtures/foreign/cardwall-kanban.yaml', import.meta.url)),
  faults: CARDWALL_FAULTS,
  correct: Object.keys(CARDWALL_VARIANTS),
  apiKey: API_KEY,
  authorization: API_KEY,
  authHeader: 'x-api-key',
  probes: CARDWALL_PROBES,
  start: (options) => startCardwall({ ...options, apiKey: API_KEY }),
};
