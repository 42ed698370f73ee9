// The single-fault deployments of the Harbour Clinic API (test/fixtures/foreign/clinic-jsonapi.yaml).
// Each is one clear violation of the document; everything else stays as the reference server does it.
import type { FaultSpec } from '../fault-catalogue.js';
import { BEHAVIOUR_FAULTS } from './faults-behaviour.js';
import { SURFACE_FAULTS } from './faults-surface.js';

const TABLE = [...SURFACE_FAULTS, ...BEHAVIOUR_FAULTS];

export type ClinicFault = (typeof TABLE)[number]['name'];

export const CLINIC_FAULTS: readonly FaultSpec<ClinicFault>[] = TABLE;
