import type { ActionDefinition } from './action.js';
import { domainAction, type DomainAction } from './domain-action.js';
import { performVerify } from './verify.js';

/** `reverify: docs.example.com`: the Re-verify button. */
export const reverify: ActionDefinition<DomainAction<'reverify'>> = {
  ...domainAction('reverify'),
  doc: 'presses Re-verify on a domain that was already checked',
  perform: (context, action) => performVerify(context, action.domain, true),
};
