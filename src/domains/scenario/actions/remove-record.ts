import { describeSeconds } from '../../../core/duration.js';
import type { RecordType } from '../../sim/dns-types.js';
import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface RemoveRecordAction {
  kind: 'remove-record';
  name: string;
  type?: RecordType;
  value?: unknown;
}

/** `remove-record: {name, type?, value?}`: removes matching records from the provider's dashboard. */
export const removeRecord: ActionDefinition<RemoveRecordAction> = {
  key: 'remove-record',
  doc: "removes matching records at once; the provider's name servers answer with them until the publish delay has passed",
  schema: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: { name: { $ref: '#/$defs/name' }, type: { $ref: '#/$defs/recordType' }, value: {} },
  },
  parse(value) {
    const match = value as { name: string; type?: RecordType; value?: unknown };
    return { kind: 'remove-record', name: match.name, type: match.type, value: match.value };
  },
  perform({ simulator }, action) {
    const outcome = simulator.removeRecords({ name: action.name, type: action.type, data: action.value });
    if (!outcome.ok) return { outcome, text: refusalText(outcome) };
    const now = simulator.now;
    const until = Math.max(...outcome.value.map((record) => record.goneAt ?? now));
    return {
      outcome,
      text: `removed ${outcome.value.length} record(s); answered for ${describeSeconds(Math.round((until - now) / 1000))} more`,
    };
  },
  describe: (action) => `remove-record ${action.type ?? '*'} ${action.name}`,
};
