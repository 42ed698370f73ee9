// The careful probe of each Stagedoor fault: what a person reading the document alone would check.
// Each returns the violation it sees, or undefined; every correct deployment passes every probe.
import type { Probe } from '../probe-client.js';
import type { StagedoorFault } from './faults.js';
import { BEHAVIOUR_PROBES } from './probes-behaviour.js';
import { SURFACE_PROBES } from './probes-surface.js';

export const STAGEDOOR_PROBES: Record<StagedoorFault, Probe> = { ...SURFACE_PROBES, ...BEHAVIOUR_PROBES };
