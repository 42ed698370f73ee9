import { INT64_MAX } from '../json.js';
import type { PetstoreFault } from '../model.js';

/** Server errors: a request the document allows, or a bad one, crashes the deployment. */
export const SERVER_ERROR_FAULTS = [
  {
    name: 'malformed-json-500',
    description: 'Malformed JSON answers 500',
    checks: ['not-a-server-error'],
    hooks: {
      malformedJson: (thrown) => {
        throw thrown;
      },
    },
  },
  {
    name: 'empty-body-500',
    description: 'A POST with an empty body answers 500',
    checks: ['not-a-server-error'],
    hooks: {
      bodyText: (text) => {
        if (text === '') throw new TypeError('Cannot read properties of undefined (reading "name")');
      },
    },
  },
  {
    name: 'bad-limit-500',
    description: 'A non-numeric limit answers 500',
    checks: ['not-a-server-error'],
    hooks: {
      limit: (values, read) => {
        const raw = values.length === 1 ? values[0]! : '';
        if (values.length > 0 && !/^-?\d+$/.test(raw)) throw new TypeError(`Cannot read limit ${raw}`);
        return read(values);
      },
    },
  },
  {
    name: 'bad-petid-500',
    description: 'A non-integer petId answers 500',
    checks: ['not-a-server-error', 'unknown-id-conformance'],
    hooks: {
      petId: (id, segment) => {
        if (id === undefined) throw new RangeError(`Cannot convert ${segment} to a BigInt`);
      },
    },
  },
  {
    name: 'petid-max-500',
    description: 'petId 2^63-1 answers 500: the lookup computes id + 1 and overflows',
    checks: ['not-a-server-error', 'unknown-id-conformance'],
    hooks: {
      petId: (id) => {
        if (id === INT64_MAX) throw new RangeError(`${id} + 1 overflows int64`);
      },
    },
  },
  {
    name: 'petid-non-latin-500',
    description: 'A petId with non-ASCII characters answers 500',
    checks: ['not-a-server-error', 'unknown-id-conformance'],
    hooks: {
      petIdText: (text) => {
        if (/[^\x20-\x7e]/.test(text)) throw new TypeError(`Invalid character in header content ["x-pet-id"]`);
        return text;
      },
    },
  },
  {
    name: 'categoryid-1e400-500',
    description: 'categoryId 1e400 answers 500 (Infinity reaches BigInt)',
    checks: ['not-a-server-error'],
    hooks: { categoryId: (value, read) => (value === Infinity ? BigInt(value) : read(value)) },
  },
  {
    name: 'intermittent-500',
    description: 'Every 7th request answers 500',
    checks: ['id-permanence', 'not-a-server-error', 'unknown-id-conformance'],
    hooks: {
      request: (count) => {
        if (count % 7 === 0) throw new Error('Connection pool exhausted');
      },
    },
  },
] as const satisfies readonly PetstoreFault[];
