// Sends the hostile plans family by family over raw sockets and judges every answer: 5xx, error
// bodies that are not the spec's `Error`, hostile requests accepted (2xx/3xx where a refusal is
// due), answers missing or late, secrets echoed back. Between families a canary asks the pet API,
// the admin API and the world whether they still answer, and the journal is read for secrets, so
// a failure is pinned to the family that caused it.
import { bearer, pool } from './api-client.js';
import { errorProblem, leakedIn } from './conformance.js';
import { materialise } from './hostile-cases.js';
import { sendRaw } from './raw-http.js';

const EXCERPT = 200;

function bodyExcerpt(response) {
  if (!response) return '';
  const text = response.body.toString('utf8');
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}… (${text.length} bytes)` : text;
}

function headerText(response) {
  return Object.entries(response.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/**
 * Judges one exchange; returns {counts: {...}, findings: [...]}. Kinds of finding: 5xx,
 * non-conforming, accepted, smuggled, no-answer, hang, leak, check.
 */
export function judge(request, result, fragments) {
  const findings = [];
  const add = (kind, detail) =>
    findings.push({
      kind,
      family: request.family,
      variant: request.name,
      summary: request.summary,
      status: result.response?.status,
      outcome: result.outcome,
      detail,
      body: bodyExcerpt(result.response),
      repro: request.repro,
    });
  const response = result.response;
  if (response) {
    if (response.status >= 500) add('5xx', `answered ${response.status}`);
    if (response.status >= 400) {
      const problem = errorProblem(response, { head: request.head });
      if (problem) add('non-conforming', problem);
    } else if (request.expect === 'reject') add('accepted', `answered ${response.status} where a refusal was due`);
    if (request.extraMs > 0 && result.finals.length > 1)
      add(
        'smuggled',
        `${result.finals.length} responses to one request (${result.finals.map((r) => r.status).join(', ')})`,
      );
    for (const extra of result.finals) {
      const leaked = leakedIn(`${headerText(extra)}\n${extra.body.toString('latin1')}`, fragments);
      if (leaked.size > 0) {
        const where = request.target.startsWith('/__kennel/journal') ? ' (in journal entries)' : '';
        add('leak', `the response shows part of ${[...leaked].join(', ')}${where}`);
      }
    }
    const checked = request.check?.(response);
    if (checked) add('check', checked);
  } else if (result.outcome === 'hang') {
    add('hang', `no answer and no close ${result.ms.toFixed(0)} ms after the request (half-closed on the way)`);
  } else if (result.outcome === 'unparsable') {
    add('non-conforming', `the answer is not HTTP: ${result.parseError}`);
  } else if (request.framing === 'ok') {
    add('no-answer', `connection ${result.outcome}${result.error ? ` (${result.error})` : ''} without a response`);
  }
  return findings;
}

/** Canary requests: [{name, run(client) -> problem | undefined}]. */
function canaries(ctx) {
  const expect200 = (name, path, headers) => ({
    name,
    run: async (client) => {
      try {
        const response = await client.get(path, headers, { timeout: 3000 });
        return response.status === 200
          ? undefined
          : `${name} answered ${response.status}: ${response.body.slice(0, 160)}`;
      } catch (error) {
        return `${name} failed: ${error.code ?? error.message}`;
      }
    },
  });
  return [
    expect200('GET /v1/pets?limit=1', '/v1/pets?limit=1', bearer(ctx.key)),
    expect200('GET /__kennel/health', '/__kennel/health', {}),
    expect200('GET /__kennel/world/state', '/__kennel/world/state', bearer(ctx.admin)),
  ];
}

/** Reads the journal and says which secrets it shows (part of), or why it could not be read. */
async function journalLeaks(client, ctx, fragments) {
  try {
    const response = await client.get('/__kennel/journal', bearer(ctx.admin), { timeout: 5000 });
    if (response.status !== 200) return { error: `journal answered ${response.status}` };
    return { leaked: [...leakedIn(response.body, fragments)] };
  } catch (error) {
    return { error: error.code ?? error.message };
  }
}

/** Every tenant's pet list (limit=100), to pin a change of the store to the family that made it. */
async function tenantLists(client, tenants) {
  const lists = {};
  for (const [label, key] of Object.entries(tenants)) {
    try {
      const response = await client.get('/v1/pets?limit=100', bearer(key), { timeout: 3000 });
      lists[label] = `${response.status} ${response.body}`;
    } catch (error) {
      lists[label] = `failed: ${error.code ?? error.message}`;
    }
  }
  return lists;
}

/**
 * Runs every family of `groups` ({family, plans}); `alive()` says whether the server process still
 * runs. Resolves {tried, families: {name: stats}, findings, brokeServer, journal, storeChangedBy}.
 */
export async function runHostile({ ctx, groups, client, concurrency, answerMs, fragments, alive, log, probe }) {
  const families = {};
  const findings = [];
  const brokeServer = [];
  const journal = [];
  const storeChangedBy = [];
  let tried = 0;
  let worldResets = 0;
  let lists = await tenantLists(client, ctx.tenants);
  for (const { family, plans } of groups) {
    if (!alive()) break;
    const started = performance.now();
    probe?.mark(`hostile ${family}`);
    const stats = { tried: 0, statuses: {}, outcomes: {}, kinds: {}, bytesSent: 0 };
    await pool(plans, concurrency, async (plan) => {
      if (!alive()) return;
      const request = materialise(plan, ctx);
      const result = await sendRaw({
        host: ctx.host,
        port: ctx.port,
        chunks: request.chunks,
        head: request.head,
        answerMs,
        extraMs: request.extraMs,
      });
      stats.tried += 1;
      stats.bytesSent += request.bytes;
      const status = result.response?.status ?? result.outcome;
      stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
      stats.outcomes[result.outcome] = (stats.outcomes[result.outcome] ?? 0) + 1;
      for (const finding of judge(request, result, fragments)) {
        stats.kinds[finding.kind] = (stats.kinds[finding.kind] ?? 0) + 1;
        findings.push(finding);
      }
    });
    tried += stats.tried;
    stats.ms = performance.now() - started;
    probe?.mark('hostile checks');
    families[family] = stats;
    if (!alive()) {
      brokeServer.push({ family, problem: 'the server process exited' });
      break;
    }
    for (const canary of canaries(ctx)) {
      const problem = await canary.run(client);
      if (!problem) continue;
      brokeServer.push({ family, problem });
      if (canary.name.includes('/world/')) {
        worldResets += 1;
        await client
          .send('POST', '/__kennel/world/reset', { headers: bearer(ctx.admin), timeout: 3000 })
          .catch(() => undefined);
      }
    }
    const listsAfter = await tenantLists(client, ctx.tenants);
    const changed = Object.keys(lists).filter((label) => lists[label] !== listsAfter[label]);
    if (changed.length > 0)
      storeChangedBy.push({
        family,
        tenants: changed,
        before: lists[changed[0]].slice(0, 200),
        after: listsAfter[changed[0]].slice(0, 200),
      });
    lists = listsAfter;
    const seen = await journalLeaks(client, ctx, fragments);
    if (seen.error || seen.leaked.length > 0) journal.push({ family, ...seen });
    const kinds = Object.entries(stats.kinds).map(([kind, count]) => `${count} ${kind}`);
    if (changed.length > 0) kinds.push(`store changed (${changed.join(', ')})`);
    log(
      `  ${family.padEnd(18)} ${String(stats.tried).padStart(4)} requests in ${(stats.ms / 1000).toFixed(1)} s${kinds.length ? `  !! ${kinds.join(', ')}` : ''}`,
    );
  }
  return { tried, families, findings, brokeServer, journal, worldResets, storeChangedBy };
}
