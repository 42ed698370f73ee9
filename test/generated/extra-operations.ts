import type { Built, DocumentParts, Schema } from './document-parts.js';
import { errorResponses, jsonResponse } from './responses.js';

/**
 * Operations outside any collection: a status page, odd path templates, parameter styles, header
 * and cookie parameters, and bodies and responses in other media types.
 */
export function addExtraOperations(parts: DocumentParts): void {
  status(parts);
  if (parts.uses('odd-paths')) oddPaths(parts);
  if (parts.uses('percent-encoded')) percentEncoded(parts);
  if (parts.uses('path-styles')) pathStyles(parts);
  if (parts.uses('query-styles')) search(parts);
  if (parts.uses('cookie-parameters')) session(parts);
  if (parts.uses('text-media')) health(parts);
  if (parts.uses('xml-media')) feed(parts);
  if (parts.uses('form-body')) feedback(parts);
  if (parts.uses('multipart')) upload(parts);
}

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  ...(required.length > 0 ? { required } : {}),
  properties,
});

/** 401 when the operation needs credentials, plus `statuses`. */
function errors(parts: DocumentParts, statuses: string[], secured = parts.secured): Record<string, unknown> {
  return errorResponses(parts, [...statuses, ...(secured ? ['401'] : [])]);
}

function status(parts: DocumentParts): void {
  const body: Built = {
    schema: object(
      {
        state: parts.uses('enums') ? { type: 'string', enum: ['ok', 'degraded'] } : { type: 'string' },
        ...(parts.uses('formats') ? { time: { type: 'string', format: 'date-time' } } : {}),
      },
      ['state'],
    ),
    sample: () => ({ state: 'ok', ...(parts.uses('formats') ? { time: '2024-05-01T00:00:00Z' } : {}) }),
  };
  const headers = parts.uses('header-parameters')
    ? {
        headers: {
          'X-RateLimit-Remaining': {
            description: 'Requests left',
            required: true,
            schema: { type: 'integer', minimum: 0 },
          },
        },
      }
    : {};
  const requestId = { name: 'X-Request-ID', in: 'header', required: true, schema: { type: 'string', minLength: 1 } };
  // With optional security, the status page is public: `security: []` overrides the document's requirement.
  const open = parts.uses('optional-security');
  parts.operation('/status', 'get', {
    operationId: 'getStatus',
    ...(open ? { security: [] } : {}),
    ...(parts.uses('header-parameters') ? { parameters: [requestId] } : {}),
    responses: {
      '200': jsonResponse(parts, 'The service status', body, headers),
      ...errors(parts, parts.uses('header-parameters') ? ['400'] : [], parts.secured && !open),
    },
  });
}

function oddPaths(parts: DocumentParts): void {
  const name = { type: 'string', ...(parts.uses('patterns') ? { pattern: '^[a-z]+$' } : {}), minLength: 1 };
  const exportBody: Built = {
    schema: object({ name: { type: 'string' }, rows: { type: 'integer', minimum: 0 } }, ['name', 'rows']),
    sample: () => ({ name: 'monthly', rows: 3 }),
  };
  parts.operation('/exports/{exportName}.json', 'get', {
    operationId: 'getExport',
    parameters: [{ name: 'exportName', in: 'path', required: true, schema: name }],
    responses: { '200': jsonResponse(parts, 'The export', exportBody), ...errors(parts, ['404']) },
  });
  const fileBody: Built = {
    schema: object({ fileName: { type: 'string' }, size: { type: 'integer' } }, ['fileName']),
    sample: () => ({ fileName: 'report', size: 12 }),
  };
  parts.operation('/files/name:{fileName}', 'get', {
    operationId: 'getFileByName',
    parameters: [{ name: 'fileName', in: 'path', required: true, schema: name }],
    responses: { '200': jsonResponse(parts, 'The file', fileBody), ...errors(parts, ['404']) },
  });
}

function percentEncoded(parts: DocumentParts): void {
  const body: Built = {
    schema: object({ dishes: { type: 'array', items: { type: 'string' } } }),
    sample: () => ({ dishes: ['soup'] }),
  };
  parts.operation('/caf%C3%A9/menu%20today', 'get', {
    operationId: 'getCafeMenu',
    responses: { '200': jsonResponse(parts, 'The menu', body), ...errors(parts, []) },
  });
}

/** Path parameters in matrix (`;cell=5`), label (`.1.2`, or `.1.2` exploded) and exploded simple (`x=1,y=2`) styles. */
function pathStyles(parts: DocumentParts): void {
  const draws = parts.draws.fork('path styles');
  const found = (name: string, schema: Schema): Built => ({
    schema: object({ [name]: schema }, [name]),
    sample: () => ({ [name]: name === 'cell' ? 5 : name === 'colors' ? [1, 2] : { x: 1, y: 2 } }),
  });
  const cell = { type: 'integer', minimum: 0, maximum: 99 };
  parts.operation('/grid/{cell}', 'get', {
    operationId: 'getGridCell',
    parameters: [
      { name: 'cell', in: 'path', required: true, style: 'matrix', explode: draws.chance(0.5), schema: cell },
    ],
    responses: { '200': jsonResponse(parts, 'The cell', found('cell', cell)), ...errors(parts, ['404']) },
  });
  const colors = { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 }, minItems: 1, maxItems: 3 };
  parts.operation('/palettes/{colors}', 'get', {
    operationId: 'getPalette',
    parameters: [
      { name: 'colors', in: 'path', required: true, style: 'label', explode: draws.chance(0.5), schema: colors },
    ],
    responses: { '200': jsonResponse(parts, 'The palette', found('colors', colors)), ...errors(parts, ['404']) },
  });
  const point = object({ x: { type: 'integer' }, y: { type: 'integer' } }, ['x', 'y']);
  parts.operation('/points/{point}', 'get', {
    operationId: 'getPoint',
    parameters: [{ name: 'point', in: 'path', required: true, style: 'simple', explode: true, schema: point }],
    responses: { '200': jsonResponse(parts, 'The point', found('point', point)), ...errors(parts, ['404']) },
  });
}

function search(parts: DocumentParts): void {
  const draws = parts.draws.fork('query styles');
  const words = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 10 }, maxItems: 4 };
  const numbers = { type: 'array', items: { type: 'integer', minimum: 0, maximum: 999 }, maxItems: 4 };
  const range = object({ from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } });
  const parameters = [
    { name: 'tags', in: 'query', style: 'form', explode: draws.chance(0.5), schema: words },
    { name: 'ids', in: 'query', style: 'pipeDelimited', explode: false, schema: numbers },
    { name: 'terms', in: 'query', style: 'spaceDelimited', explode: false, schema: words },
    { name: 'range', in: 'query', style: 'deepObject', explode: true, schema: range },
    {
      name: 'point',
      in: 'query',
      style: 'form',
      explode: draws.chance(0.5),
      schema: object({ x: { type: 'integer' }, y: { type: 'integer' } }),
    },
  ];
  const body: Built = {
    schema: object({ count: { type: 'integer', minimum: 0 } }, ['count']),
    sample: () => ({ count: 0 }),
  };
  parts.operation('/search', 'get', {
    operationId: 'search',
    parameters: draws.some(parameters, draws.int(1, parameters.length)),
    responses: { '200': jsonResponse(parts, 'What matched', body), ...errors(parts, ['400']) },
  });
}

function session(parts: DocumentParts): void {
  const body: Built = { schema: object({ active: { type: 'boolean' } }, ['active']), sample: () => ({ active: true }) };
  parts.operation('/session', 'get', {
    operationId: 'getSession',
    parameters: [{ name: 'session_id', in: 'cookie', required: true, schema: { type: 'string', minLength: 8 } }],
    responses: { '200': jsonResponse(parts, 'The session', body), ...errors(parts, ['400']) },
  });
}

function health(parts: DocumentParts): void {
  parts.operation('/health', 'get', {
    operationId: 'getHealth',
    responses: {
      '200': {
        description: 'Plain text health',
        content: { 'text/plain': { schema: { type: 'string' }, ...(parts.uses('examples') ? { example: 'OK' } : {}) } },
      },
      ...errors(parts, []),
    },
  });
}

function feed(parts: DocumentParts): void {
  const schema = {
    ...object({ title: { type: 'string' }, entries: { type: 'integer' } }, ['title']),
    xml: { name: 'feed' },
  };
  parts.operation('/feed', 'get', {
    operationId: 'getFeed',
    responses: {
      '200': { description: 'The feed as XML', content: { 'application/xml': { schema } } },
      ...errors(parts, []),
    },
  });
}

function feedback(parts: DocumentParts): void {
  const form = object(
    { rating: { type: 'integer', minimum: 1, maximum: 5 }, comment: { type: 'string', maxLength: 200 } },
    ['rating'],
  );
  const body: Built = {
    schema: object({ id: { type: 'integer' }, rating: { type: 'integer' } }, ['id', 'rating']),
    sample: () => ({ id: 1, rating: 5 }),
  };
  parts.operation('/feedback', 'post', {
    operationId: 'sendFeedback',
    requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: form } } },
    responses: { '201': jsonResponse(parts, 'Feedback received', body), ...errors(parts, ['400']) },
  });
}

function upload(parts: DocumentParts): void {
  const form = object({ file: { type: 'string', format: 'binary' }, description: { type: 'string' } }, ['file']);
  const body: Built = {
    schema: object({ id: { type: 'integer' }, size: { type: 'integer', minimum: 0 } }, ['id']),
    sample: () => ({ id: 1, size: 10 }),
  };
  parts.operation('/uploads', 'post', {
    operationId: 'upload',
    requestBody: { required: true, content: { 'multipart/form-data': { schema: form } } },
    responses: { '201': jsonResponse(parts, 'Uploaded', body), ...errors(parts, ['400']) },
  });
}
