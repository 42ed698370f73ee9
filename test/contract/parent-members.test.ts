// A sub-resource's member named as its parent's path parameter (a card's board_id) names the
// parent it was made under: kennel serve fills it from the path, and kennel check's
// reads-scoped-to-parent, which creates a card under another board, finds it so.
import { describe, expect, it } from 'vitest';
import { startMock } from '../../src/serve/server.js';
import { errors, fixture, KEY, serveAndCheck } from './agreement-helpers.js';

describe('members that name a parent', () => {
  it('kennel serve gives a card made under a board that board’s id as its board_id', async () => {
    const mock = await startMock({
      specPath: fixture('cards-name-their-board.yaml'),
      port: 0,
      apiKeys: [KEY],
      world: false,
    });
    try {
      const send = async (path: string, body: object) =>
        (await (
          await fetch(`${mock.url}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json()) as Record<string, unknown>;
      const board = await send('/boards', { name: 'kennel-board' });
      const card = await send(`/boards/${String(board.id)}/cards`, { title: 'kennel-card' });
      expect(card.board_id).toBe(board.id);
    } finally {
      await mock.close();
    }
  });

  it('kennel check finds no error against kennel serve, and judged the card it made under another board', async () => {
    const summary = await serveAndCheck('cards-name-their-board.yaml');
    expect(errors(summary)).toEqual([]);
    const judged = summary.cases.find(
      (result) => result.check === 'reads-scoped-to-parent' && result.operationId === 'getCard',
    );
    expect(judged?.status).toBe('passed');
  });
});
