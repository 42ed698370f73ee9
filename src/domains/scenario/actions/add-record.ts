import { describeSeconds } from '../../../core/duration.js';
import type { Outcome } from '../../sim/model.js';
import type { GivenRecord } from '../../sim/world-config.js';
import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface AddRecordAction {
  kind: 'add-record';
  record: GivenRecord;
}

/** `add-record: {name, type, value, ttl?}`: saves a record at the zone's provider. */
export const addRecord: ActionDefinition<AddRecordAction> = {
  key: 'add-record',
  doc: "saves a record at the zone's provider (answered once its publish delay has passed)",
  schema: { $ref: '#/$defs/record' },
  parse: (value) => ({ kind: 'add-record', record: value as GivenRecord }),
  perform({ simulator }, { record }) {
    const change = simulator.addRecord({ name: record.name, type: record.type, data: record.value, ttl: record.ttl });
    const outcome: Outcome<unknown> = change.ok
      ? { ok: true, value: change.record }
      : { ok: false, code: change.code, message: change.message };
    return {
      outcome,
      text: change.ok
        ? `saved; answered in ${describeSeconds(Math.round((change.record.visibleAt - simulator.now) / 1000))}`
        : refusalText(outcome),
    };
  },
  describe: ({ record }) =>
    `add-record ${record.type} ${record.name} → ${typeof record.value === 'string' ? record.value : JSON.stringify(record.value)}`,
};
