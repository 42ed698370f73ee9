import type { ActionDefinition } from './action.js';

/** An action whose value is one domain name (the dashboard's buttons). */
export interface DomainAction<K extends string> {
  kind: K;
  domain: string;
}

/** The schema, parse and describe every domain-valued action shares; each action adds its doc and perform. */
export function domainAction<K extends string>(
  key: K,
): Pick<ActionDefinition<DomainAction<K>>, 'key' | 'schema' | 'parse' | 'describe'> {
  return {
    key,
    schema: { $ref: '#/$defs/name' },
    parse: (value) => ({ kind: key, domain: value as string }),
    describe: (action) => `${action.kind} ${action.domain}`,
  };
}
