// The admin and world APIs as a browser attack reaches them (the Chromium test is
// test/browser/admin-csrf.test.ts): foreign Host names (DNS rebinding), foreign Origin and
// Sec-Fetch-Site, form and text bodies (CSRF), with and without the admin token. Nothing may
// change state; the same requests from the same origin must still work.
import { apiClient, bearer } from '../api-client.js';
import { finding, notAnError, rawExchange, requestText } from './raw.js';
import { spawnServe } from './serve-child.js';

const FAMILY = 'admin';
const CHANGES = [
  ['POST', '/__kennel/reset', '{}'],
  ['DELETE', '/__kennel/journal', ''],
  ['PUT', '/__kennel/chaos', '{"rules":[{"match":"*","fault":"503"}]}'],
  ['PUT', '/__kennel/now', '{"now":"2031-01-01"}'],
  ['POST', '/__kennel/world/reset', ''],
  ['POST', '/__kennel/world/clock/advance', '{"by":"1d"}'],
];
const READS = ['/__kennel/journal', '/__kennel/chaos', '/__kennel/now', '/__kennel/world/state', '/__kennel/dashboard'];

/** The attacks: [label, headers (HOST is the server's own host:port), body content type, expected status]. */
function attacks(own) {
  const rebinding = [
    'attacker.example',
    `attacker.example:${own.split(':')[1]}`,
    '127.0.0.1.nip.io',
    'LOCALHOST.attacker.example',
  ];
  return [
    ...rebinding.map((host) => [`Host: ${host}`, { Host: host }, 'application/json', 403]),
    ['Origin: http://evil.example', { Origin: 'http://evil.example' }, 'application/json', 403],
    ['Origin: null', { Origin: 'null' }, 'application/json', 403],
    ['Origin: another port', { Origin: 'http://127.0.0.1:1' }, 'application/json', 403],
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }, 'application/json', 403],
    ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }, 'application/json', 403],
    ['a form body', {}, 'application/x-www-form-urlencoded', 415],
    ['a multipart body', {}, 'multipart/form-data; boundary=x', 415],
    ['a text body', {}, 'text/plain', 415],
  ];
}

async function worldClock(client, token) {
  const answer = await client.get('/__kennel/world/state', token ? bearer(token) : {});
  return answer.status === 200 ? JSON.stringify(JSON.parse(answer.body).clock) : `status ${answer.status}`;
}

/** One kennel (with or without a token): every attack on every route refused, its state unchanged. */
async function attackOne(bin, cwd, keys, token, findings) {
  const args = ['--log-level', 'warn', '--api-key', keys[0], ...(token ? ['--admin-token', token] : [])];
  const kennel = await spawnServe({ bin, cwd, args });
  const client = apiClient(kennel.origin);
  const own = new URL(kennel.origin).host;
  const auth = token ? { Authorization: `Bearer ${token}` } : {};
  let tried = 0;
  let accepted = 0;
  try {
    const made = await client.post('/v1/pets', { name: 'Canary', categoryId: 1 }, bearer(keys[0]));
    const pet = JSON.parse(made.body);
    await client.post('/__kennel/world/clock/advance', { by: '2d' }, token ? bearer(token) : {});
    const clock = await worldClock(client, token);
    for (const [label, headers, type, expected] of attacks(own)) {
      const rebinding = headers.Host !== undefined;
      const requests = [...CHANGES, ...(rebinding ? READS.map((path) => ['GET', path, '']) : [])];
      for (const [method, path, body] of requests) {
        tried += 1;
        const answer = await rawExchange(
          kennel.origin,
          requestText(method, path, { Host: own, ...auth, 'Content-Type': type, ...headers }, body),
        );
        if (answer.status < 300) accepted += 1;
        if (answer.status !== expected || notAnError(answer))
          findings.push(
            finding(
              FAMILY,
              answer.status < 300 ? 'accepted' : 'status',
              `${label} ${method} ${path}`,
              `answered ${answer.status}${token ? ' (with the token)' : ''}: ${answer.body.slice(0, 100)}`,
            ),
          );
      }
    }
    const still = await client.get(`/v1/pets/${pet.id}`, bearer(keys[0]));
    if (still.status !== 200)
      findings.push(finding(FAMILY, 'state', 'store', `the canary pet is gone (${still.status})`));
    if ((await worldClock(client, token)) !== clock)
      findings.push(finding(FAMILY, 'state', 'world', 'the world clock moved'));
    // The same state changes from the same origin, as kennel's own dashboard sends them, still work.
    for (const [method, path, body] of CHANGES) {
      const headers = { Host: own, Origin: `http://${own}`, 'Sec-Fetch-Site': 'same-origin', ...auth };
      if (body) headers['Content-Type'] = 'application/json';
      const answer = await rawExchange(kennel.origin, requestText(method, path, headers, body));
      if (answer.status >= 300)
        findings.push(finding(FAMILY, 'refused', `${method} ${path}`, `same origin answered ${answer.status}`));
    }
    return { tried, accepted };
  } finally {
    client.close();
    await kennel.stop();
  }
}

/** Runs the family; resolves its figures and findings. */
export async function runAdminFamily({ bin, cwd, keys, adminToken }) {
  const findings = [];
  const open = await attackOne(bin, cwd, keys, undefined, findings);
  const guarded = await attackOne(bin, cwd, keys, adminToken, findings);
  return {
    tried: open.tried + guarded.tried,
    accepted: open.accepted + guarded.accepted,
    findings,
  };
}
