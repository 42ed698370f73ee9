// A correct server for fixtures/contract/account-members.yaml: accounts, each with its own
// members numbered from 1, so two accounts both hold a member 1 (different people). The fault
// `member-read-ignores-account` answers a read of a member with the first account's member of that id.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const ACCOUNT_MEMBERS_SPEC = fileURLToPath(
  new URL('../fixtures/contract/account-members.yaml', import.meta.url),
);

interface Member {
  id: number;
  name: string;
}

interface Account {
  id: string;
  name: string;
  members: Member[];
}

/** The `name` of a body with only a name of 1 to 40 characters. */
function nameOf(request: ReceivedRequest): string {
  const body = jsonBody(request);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Refusal(400, 'send an object');
  const { name, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new Refusal(400, `unknown property ${Object.keys(rest)[0]}`);
  if (typeof name !== 'string' || [...name].length < 1 || [...name].length > 40)
    throw new Refusal(400, 'name: 1 to 40 characters');
  return name;
}

const show = (account: Account) => ({ id: account.id, name: account.name });

export type AccountMembersFault = 'member-read-ignores-account';

export function startAccountMembers(fault?: AccountMembersFault): Promise<LoopbackServer> {
  const accounts: Account[] = [
    {
      id: 'acc-1',
      name: 'Acme',
      members: [
        { id: 1, name: 'Ada' },
        { id: 2, name: 'Bo' },
      ],
    },
    { id: 'acc-2', name: 'Beta', members: [{ id: 1, name: 'Cy' }] },
  ];

  function account(id: string): Account {
    const found = accounts.find((candidate) => candidate.id === id);
    if (!found) throw new Refusal(404, `no account ${id}`);
    return found;
  }

  function route(request: ReceivedRequest): Answer {
    const { method } = request;
    const path = request.url.pathname.split('/').slice(1).map(decodeURIComponent);
    if (path[0] !== 'accounts') throw new Refusal(404, 'not found');
    if (path.length === 1 && method === 'GET') return { status: 200, body: accounts.map(show) };
    if (path.length === 1 && method === 'POST') {
      const created = { id: `acc-${accounts.length + 1}`, name: nameOf(request), members: [] };
      accounts.push(created);
      return { status: 201, body: show(created) };
    }
    const owner = account(path[1]!);
    if (path.length === 2 && method === 'GET') return { status: 200, body: show(owner) };
    if (path[2] !== 'members') throw new Refusal(404, 'not found');
    if (path.length === 3 && method === 'GET') return { status: 200, body: owner.members };
    if (path.length === 3 && method === 'POST') {
      const added = { id: owner.members.length + 1, name: nameOf(request) };
      owner.members.push(added);
      return { status: 201, body: added };
    }
    const holder = fault === 'member-read-ignores-account' ? accounts[0]! : owner;
    const member = holder.members.find((candidate) => String(candidate.id) === path[3]);
    if (path.length === 4 && method === 'GET') {
      if (!member) throw new Refusal(404, `no member ${path[3]} in ${owner.id}`);
      return { status: 200, body: member };
    }
    throw new Refusal(405, `${method} is not allowed here`);
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { error: refusal.message } }));
}
