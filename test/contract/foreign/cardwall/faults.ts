// The single-fault deployments of the Cardwall Kanban API (test/fixtures/foreign/cardwall-kanban.yaml).
// Each is one clear violation of the document; everything else stays as the reference server does it.
import type { FaultSpec } from '../fault-catalogue.js';
import { BEHAVIOUR_FAULTS } from './faults-behaviour.js';
import { SURFACE_FAULTS } from './faults-surface.js';

const TABLE = [...SURFACE_FAULTS, ...BEHAVIOUR_FAULTS];

export type CardwallFault = (typeof TABLE)[number]['name'];

export const CARDWALL_FAULTS: readonly FaultSpec<CardwallFault>[] = TABLE;
