// The single-fault deployments of the Redocly Museum API (test/fixtures/foreign/redocly-museum.yaml),
// in two tables: the interface surface and behaviour. Each is one clear violation of the document
// (everything else stays as the reference server does it).
import type { FaultSpec } from '../fault-catalogue.js';
import { BEHAVIOUR_FAULTS } from './faults-behaviour.js';
import { SURFACE_FAULTS } from './faults-surface.js';

const TABLE = [...SURFACE_FAULTS, ...BEHAVIOUR_FAULTS];

export type MuseumFault = (typeof TABLE)[number]['name'];

export const MUSEUM_FAULTS: readonly FaultSpec<MuseumFault>[] = TABLE;
