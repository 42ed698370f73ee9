import { describe, expect, it } from 'vitest';
import { CARDWALL } from './foreign/cardwall/api.js';
import { CLINIC } from './foreign/clinic/api.js';
import type { ForeignApi } from './foreign/fault-catalogue.js';
import { MUSEUM } from './foreign/museum/api.js';
import { ProbeClient } from './foreign/probe-client.js';
import { STAGEDOOR } from './foreign/stagedoor/api.js';

// The foreign APIs' faults are real: a careful hand-written probe sees each one over HTTP, and
// passes every correct deployment. (Whether kennel check sees them is foreign-apis.test.ts.)
const APIS = [STAGEDOOR, MUSEUM, CARDWALL, CLINIC] as ForeignApi[];

async function probe(
  api: ForeignApi,
  deployment: { fault?: string; variant?: string },
  fault: string,
): Promise<string | undefined> {
  const server = await api.start(deployment);
  try {
    return await api.probes[fault]!(new ProbeClient(server.url, api.authorization, api.authHeader));
  } finally {
    await server.close();
  }
}

describe.each(APIS)('the $name faults, by their probes', (api) => {
  it('has a probe for every fault, and faults of at least 30 kinds', () => {
    expect(Object.keys(api.probes).sort()).toEqual(api.faults.map((fault) => fault.name).sort());
    expect(api.faults.length).toBeGreaterThanOrEqual(30);
  });

  it.each(api.correct)('passes the correct deployment %s on every probe', async (variant) => {
    const server = await api.start({ variant });
    try {
      const client = new ProbeClient(server.url, api.authorization, api.authHeader);
      const violations: string[] = [];
      for (const { name } of api.faults) {
        const verdict = await api.probes[name]!(client);
        if (verdict !== undefined) violations.push(`${name}: ${verdict}`);
      }
      expect(violations).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it.each(api.faults)('sees the fault $name: $description', async ({ name }) => {
    expect(await probe(api, { fault: name }, name)).toBeDefined();
  });
});
