import type { PetstoreFault } from '../model.js';

/** Authentication: who may call, with which credentials, and what a refusal says. */
export const AUTH_FAULTS = [
  {
    name: 'no-auth',
    description: 'No operation checks the API key',
    checks: ['auth-before-validation', 'auth-enforced', 'status-code-conformance'],
    hooks: { authorised: () => true },
  },
  {
    name: 'any-token',
    description: 'Any Bearer token is accepted',
    checks: ['auth-before-validation', 'auth-enforced', 'status-code-conformance'],
    hooks: { authorised: ({ bearer }, correct) => correct || bearer !== undefined },
  },
  {
    name: 'basic-accepted',
    description: 'The Basic scheme is accepted with any credentials',
    checks: ['auth-enforced', 'status-code-conformance'],
    hooks: { authorised: ({ scheme }, correct) => correct || scheme?.toLowerCase() === 'basic' },
  },
  {
    name: 'post-unprotected',
    description: 'createPet skips authentication',
    checks: ['auth-before-validation', 'auth-enforced'],
    hooks: { authorised: ({ operation }, correct) => correct || operation === 'createPet' },
  },
  {
    name: 'getpet-unprotected',
    description: 'getPet skips authentication',
    checks: ['auth-enforced'],
    hooks: { authorised: ({ operation }, correct) => correct || operation === 'getPet' },
  },
  {
    name: 'orders-unprotected',
    description: 'GET /store/orders skips authentication',
    checks: ['auth-enforced', 'status-code-conformance'],
    hooks: { authorised: ({ operation }, correct) => correct || operation === 'listStoreOrders' },
  },
  {
    name: 'auth-403',
    description: 'A missing or invalid key answers 403 (Error status 403) instead of 401',
    checks: ['auth-before-validation', 'auth-enforced'],
    hooks: {
      unauthorised: (_header, _correct, answers) =>
        answers.error(403, 'forbidden', 'The API key is missing or invalid'),
    },
  },
  {
    name: 'auth-plain-text',
    description: 'The 401 body is text/plain "Unauthorized"',
    checks: ['content-type-conformance'],
    hooks: {
      unauthorised: () => ({
        status: 401,
        body: 'Unauthorized',
        kind: 'text',
        headers: { 'www-authenticate': 'Bearer' },
      }),
    },
  },
  {
    name: 'key-case-insensitive',
    description: 'API keys are compared ignoring letter case',
    checks: ['auth-enforced', 'status-code-conformance'],
    hooks: { authorised: ({ bearer, apiKey }, correct) => correct || bearer?.toLowerCase() === apiKey.toLowerCase() },
  },
  {
    name: 'key-prefix',
    description: 'Any token that starts with the API key is accepted',
    checks: ['auth-enforced', 'status-code-conformance'],
    hooks: { authorised: ({ bearer, apiKey }, correct) => correct || bearer?.startsWith(apiKey) === true },
  },
  {
    name: 'key-prefix-compared',
    description: 'The token is compared over its own length: a prefix of the key is accepted',
    checks: ['auth-enforced', 'status-code-conformance'],
    hooks: {
      authorised: ({ bearer, apiKey }, correct) => correct || (bearer !== undefined && apiKey.startsWith(bearer)),
    },
  },
  {
    name: 'scheme-ignored',
    description: 'Only the token after the space is checked: "Basic <key>" is accepted',
    checks: ['auth-enforced', 'status-code-conformance'],
    hooks: { authorised: ({ token, apiKey }, correct) => correct || token === apiKey },
  },
  {
    name: 'auth-scheme-case-sensitive',
    description: 'The scheme must be spelt "Bearer": "bearer <key>" gets 401',
    checks: ['auth-scheme-case-insensitive'],
    hooks: { authorised: ({ scheme }, correct) => correct && scheme === 'Bearer' },
  },
  {
    name: 'auth-single-space',
    description: 'Exactly one space may follow the scheme: "Bearer  <key>" gets 401',
    checks: ['auth-scheme-case-insensitive'],
    hooks: { authorised: ({ header }, correct) => correct && /^\S+ \S+ *$/.test(header ?? '') },
  },
  {
    name: 'no-www-authenticate',
    description: '401 responses carry no WWW-Authenticate challenge',
    checks: ['auth-challenge-present'],
    hooks: { unauthorised: (_header, { status, body, kind }) => ({ status, body, kind }) },
  },
  {
    name: 'www-authenticate-basic',
    description: '401 responses challenge for Basic, not Bearer',
    checks: ['auth-challenge-present'],
    hooks: {
      unauthorised: (_header, correct) => ({ ...correct, headers: { 'www-authenticate': 'Basic realm="pets"' } }),
    },
  },
  {
    name: 'wrong-key-403',
    description: 'A wrong key answers 403 (a missing one 401)',
    checks: ['auth-before-validation', 'auth-enforced'],
    hooks: {
      unauthorised: (header, correct, answers) =>
        header === undefined ? correct : answers.error(403, 'forbidden', 'The API key is missing or invalid'),
    },
  },
  {
    name: 'validation-before-auth',
    description: 'createPet validates the body first: an invalid body without a key gets 400',
    checks: ['auth-before-validation'],
    hooks: { validatesBeforeAuth: true },
  },
] as const satisfies readonly PetstoreFault[];
