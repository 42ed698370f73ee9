// Headers a stored item's answer promises: kennel serve keeps the items and still sends the
// headers the document requires on their answers, so kennel check finds them (test/fixtures/agreement).
import { describe, expect, it } from 'vitest';
import { errors, serveAndCheck } from './agreement-helpers.js';

describe("headers a stored item's answer promises", () => {
  it('kennel serve sends the required headers on the answers of the items it keeps', async () => {
    const summary = await serveAndCheck('required-response-headers.yaml');
    expect(errors(summary)).toEqual([]);
    const judged = summary.cases.filter(
      (result) => result.check === 'response-headers-conformance' && result.status === 'passed',
    );
    expect(judged.map((result) => result.operationId).sort()).toEqual([
      'createTicket',
      'deleteTicket',
      'getTicket',
      'listTickets',
    ]);
  });
});
