import type { PetstoreFault } from '../model.js';

/** Valid input refused: a body or media type the document allows gets a 4xx. */
export const VALID_INPUT_FAULTS = [
  {
    name: 'pending-rejected',
    description: "createPet refuses the valid status 'pending' with 400",
    checks: ['positive-data-acceptance'],
    hooks: {
      status: (value, read, answers) => {
        if (value === 'pending') throw answers.invalidBody('/status', 'must be available or sold');
        return read(value);
      },
    },
  },
  {
    name: 'charset-rejected',
    description: 'createPet refuses Content-Type: application/json; charset=utf-8',
    checks: ['positive-data-acceptance'],
    hooks: { acceptsMediaType: (contentType, correct) => correct && !contentType.includes(';') },
  },
  {
    name: 'media-type-case-sensitive',
    description: 'createPet refuses Content-Type Application/JSON (compared case-sensitively)',
    checks: ['positive-data-acceptance'],
    hooks: {
      acceptsMediaType: (contentType, correct) => correct && contentType.split(';')[0]!.trim() === 'application/json',
    },
  },
  {
    name: 'charset-case-sensitive',
    description: 'createPet refuses any charset spelling but charset=utf-8 (Charset=UTF-8 gets 400)',
    checks: ['positive-data-acceptance'],
    hooks: {
      acceptsMediaType: (contentType, correct) =>
        correct && (!contentType.includes(';') || contentType.includes('charset=utf-8')),
    },
  },
] as const satisfies readonly PetstoreFault[];
