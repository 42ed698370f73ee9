import { describe, expect, it } from 'vitest';
import { deprecationHeaders } from '../../src/mock/respond/deprecation.js';
import type { Operation } from '../../src/openapi/operations.js';

const operation = (extensions: Record<string, unknown>): Operation =>
  ({ deprecated: true, extensions, operationId: 'old', path: '/old' }) as unknown as Operation;
const spec = { operations: [], basePath: '/v1' };

describe('Deprecation (RFC 9745) carries the date of deprecation, never a made-up one', () => {
  it.each([
    [{ 'x-deprecated-at': '2025-01-01', 'x-sunset': '2030-12-05' }, '@1735689600', 'Thu, 05 Dec 2030 00:00:00 GMT'],
    [{ 'x-deprecated-at': '2025-01-01' }, '@1735689600', undefined],
    [{ 'x-sunset': '2030-12-05' }, undefined, 'Thu, 05 Dec 2030 00:00:00 GMT'],
    [{}, '@0', undefined],
  ])('%j → Deprecation %s, Sunset %s', (extensions, deprecation, sunset) => {
    const headers = deprecationHeaders(operation(extensions), spec);
    expect(headers.Deprecation).toBe(deprecation);
    expect(headers.Sunset).toBe(sunset);
  });
});
