import { readDuration } from '../../../core/duration.js';
import type { ActionDefinition } from './action.js';

export interface AdvanceAction {
  kind: 'advance';
  ms: number;
  /** The duration as written (`1h30m`), for the timeline. */
  text: string;
}

/** `advance: 48h`: moves the virtual clock. */
export const advance: ActionDefinition<AdvanceAction> = {
  key: 'advance',
  doc: 'moves the virtual clock; certificate attempts, retries and time-outs happen on the way',
  schema: { $ref: '#/$defs/duration' },
  parse(value) {
    const duration = readDuration(value);
    return duration.ok ? { kind: 'advance', ms: duration.ms, text: value as string } : { problem: duration.reason };
  },
  perform({ simulator }, action) {
    simulator.advance(action.ms);
    return { outcome: { ok: true }, text: `clock moved ${action.text}, now ${new Date(simulator.now).toISOString()}` };
  },
  describe: (action) => `advance ${action.text}`,
};
