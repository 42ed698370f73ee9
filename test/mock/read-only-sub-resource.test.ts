// A collection clients only read under a parent (`/devices/{deviceId}/comments`, list and read,
// no create) is kept by kennel serve like a top-level one: every listed item reads back as listed
// and an unknown key is a 404 (its seeds sit under no parent a URL names, so its lists are empty). Found by the generated documents (test/generated): the list
// answered its examples and every read the first of them.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../src/serve/server.js';

const SPEC = fileURLToPath(new URL('../fixtures/resources/read-only-sub-resource.yaml', import.meta.url));

describe('a read-only sub-resource', () => {
  it('reads every listed item back as listed, and an unknown key as 404', async () => {
    const mock = await startMock({ specPath: SPEC, port: 0, world: false });
    try {
      const devices = (await (await fetch(`${mock.url}/devices`)).json()) as { deviceId: number }[];
      for (const { deviceId } of devices) {
        const under = `${mock.url}/devices/${deviceId}/comments`;
        const listed = (await (await fetch(under)).json()) as { commentId: number }[];
        for (const item of listed) expect(await (await fetch(`${under}/${item.commentId}`)).json()).toEqual(item);
        expect((await fetch(`${under}/987654`)).status).toBe(404);
      }
      expect(devices.length).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});
