import { parseDuration } from '../core/duration.js';
import { ProblemError } from '../core/problem.js';
import { stringifyJson } from '../core/json.js';
import type { MockResponse } from '../mock/mock-response.js';
import type { Responder } from '../mock/spec-router.js';
import type { QueryType, RecordType } from './dns-types.js';
import type { LiveWorld } from './live-world.js';
import type { Outcome, Plan } from './model.js';
import { checkName } from './names.js';
import {
  answerView,
  domainView,
  historyView,
  projectView,
  recordView,
  serveView,
  worldView,
  zoneView,
} from './views.js';
import { formatOffset } from '../core/duration.js';

/** HTTP status for each refusal code of the simulator (404 missing things, 400 bad input, 409 the rest). */
const NOT_FOUND = new Set([
  'project_not_found',
  'domain_not_found',
  'redirect_not_found',
  'no_such_zone',
  'record_not_found',
  'zone_not_found',
  'scenario_not_found',
  'step_not_found',
  'certificate_not_issued',
]);
const INVALID = new Set([
  'invalid_name',
  'invalid_record',
  'unsupported_redirect_status',
  'unknown_provider',
  'unknown_resolver',
  'invalid_duration',
  'invalid_url',
  'invalid_scenario',
]);

function statusOf(code: string): number {
  if (NOT_FOUND.has(code)) return 404;
  return INVALID.has(code) ? 400 : 409;
}

function problem(code: string, message: string): ProblemError {
  return new ProblemError(statusOf(code), code, message);
}

function json(status: number, body: unknown): MockResponse {
  return { status, json: stringifyJson(body) };
}

function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw problem(outcome.code, outcome.message);
  return outcome.value;
}

type Input = Parameters<Responder>[1];
type Handler = (live: LiveWorld, input: Input) => MockResponse | Promise<MockResponse>;

const body = (input: Input) => input.body.value as Record<string, unknown>;
const param = (input: Input, name: string) => input.path[name] as string;

function project(live: LiveWorld) {
  return unwrap(live.simulator.project(live.projectId));
}

function domainResponse(live: LiveWorld, status: number, name: string): MockResponse {
  const owner = project(live);
  const checked = checkName(name);
  const domain = checked.ok ? owner.domains.get(checked.name) : undefined;
  if (!domain) throw problem('domain_not_found', `${name} is not attached to project ${owner.id}`);
  return json(status, domainView(live.simulator, owner, domain));
}

function zoneOf(live: LiveWorld, apex: string) {
  const checked = checkName(apex);
  const zone = checked.ok
    ? live.simulator.world
        .zones()
        .find((candidate) => candidate.apex === checked.name && candidate.provider.id !== 'platform')
    : undefined;
  if (!zone) throw problem('zone_not_found', `no simulated zone ${apex}`);
  return zone;
}

function userZones(live: LiveWorld) {
  return live.simulator.world.zones().filter((zone) => zone.provider.id !== 'platform');
}

const HANDLERS: Record<string, Handler> = {
  getWorld: (live) => json(200, worldView(live.simulator, live.projectId, live.startedAt)),
  updateProject: (live, input) => {
    const { plan, deployed } = body(input) as { plan?: Plan; deployed?: boolean };
    if (plan !== undefined) unwrap(live.simulator.setPlan(live.projectId, plan));
    if (deployed !== undefined) unwrap(live.simulator.setDeployed(live.projectId, deployed));
    return json(200, projectView(project(live)));
  },
  listDomains: (live) => {
    const owner = project(live);
    return json(
      200,
      [...owner.domains.values()].map((domain) => domainView(live.simulator, owner, domain)),
    );
  },
  addDomain: (live, input) => {
    const added = unwrap(live.simulator.addDomain(live.projectId, body(input).name as string));
    return json(201, domainView(live.simulator, project(live), added.domain));
  },
  getDomain: (live, input) => domainResponse(live, 200, param(input, 'name')),
  removeDomain: (live, input) => {
    const removed = unwrap(live.simulator.removeDomain(live.projectId, param(input, 'name')));
    return json(200, domainView(live.simulator, project(live), removed));
  },
  verifyDomain: (live, input) => {
    const domain = unwrap(live.simulator.verify(live.projectId, param(input, 'name')));
    return json(200, domainView(live.simulator, project(live), domain));
  },
  reverifyDomain: (live, input) => {
    const domain = unwrap(live.simulator.verify(live.projectId, param(input, 'name'), { reverify: true }));
    return json(200, domainView(live.simulator, project(live), domain));
  },
  getDomainCertificate: async (live, input) => {
    const name = param(input, 'name');
    const checked = checkName(name);
    const minted = checked.ok ? await live.certificateFor(checked.name, Date.now()) : undefined;
    if (!minted) throw problem('certificate_not_issued', `no certificate has been issued for ${name}`);
    return { status: 200, text: minted.chainPem, contentType: 'application/x-pem-file' };
  },
  setPrimary: (live, input) =>
    json(200, projectView(unwrap(live.simulator.setPrimary(live.projectId, body(input).name as string)))),
  addRedirect: (live, input) => {
    const { from, to, status } = body(input) as { from: string; to: string; status?: number };
    const updated = unwrap(live.simulator.addRedirect(live.projectId, { from, to, status: status ?? 301 }));
    return json(201, updated.redirects.at(-1));
  },
  removeRedirect: (live, input) =>
    json(200, projectView(unwrap(live.simulator.removeRedirect(live.projectId, param(input, 'from'))))),
  listZones: (live) =>
    json(
      200,
      userZones(live).map((zone) => zoneView(live.simulator, zone)),
    ),
  addZone: (live, input) => {
    const { apex, provider } = body(input) as { apex: string; provider: string };
    const checked = checkName(apex);
    if (checked.ok && live.simulator.world.zones().some((zone) => zone.apex === checked.name))
      throw problem('zone_exists', `${checked.name} is already a simulated zone`);
    const added = unwrap(live.simulator.addZone(apex, provider));
    return json(201, zoneView(live.simulator, zoneOf(live, added)));
  },
  getZone: (live, input) => json(200, zoneView(live.simulator, zoneOf(live, param(input, 'apex')))),
  setZoneFailures: (live, input) => {
    const zone = zoneOf(live, param(input, 'apex'));
    live.simulator.world.setFailing(zone.apex, body(input).types as (QueryType | '*')[]);
    return json(200, zoneView(live.simulator, zone));
  },
  listRecords: (live) =>
    json(
      200,
      userZones(live).flatMap((zone) => live.simulator.world.saved(zone).map(recordView)),
    ),
  addRecord: (live, input) => {
    const { name, type, value, ttl } = body(input) as { name: string; type: RecordType; value: unknown; ttl?: number };
    const change = live.simulator.addRecord({ name, type, data: value, ttl });
    if (!change.ok) throw problem(change.code, change.message);
    return json(201, recordView(change.record));
  },
  getRecord: (live, input) => {
    const found = live.simulator.world.record(Number(input.path.id));
    if (!found) throw problem('record_not_found', `no record ${String(input.path.id)}`);
    return json(200, recordView(found.record));
  },
  removeRecord: (live, input) => {
    const found = live.simulator.world.record(Number(input.path.id));
    if (!found) throw problem('record_not_found', `no record ${String(input.path.id)}`);
    live.simulator.removeRecords({ name: found.record.name, type: found.record.type, data: found.record.data });
    return json(200, recordView(found.record));
  },
  queryDns: (live, input) => {
    const { name, type, resolver } = input.query as { name: string; type: QueryType; resolver?: string };
    return json(200, answerView(unwrap(live.simulator.query(resolver ?? 'public', name, type))));
  },
  serveSite: (live, input) => {
    let url: URL;
    try {
      url = new URL(input.query.url as string);
    } catch {
      throw problem('invalid_url', `${JSON.stringify(input.query.url)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw problem('invalid_url', 'the URL must be http or https');
    return json(
      200,
      serveView(
        live.simulator.serve({
          host: url.hostname,
          path: `${url.pathname}${url.search}`,
          scheme: url.protocol === 'https:' ? 'https' : 'http',
        }),
      ),
    );
  },
  listHistory: (live, input) =>
    json(
      200,
      live.simulator.history
        .list({ subject: input.query.subject as string | undefined, kind: input.query.kind as string | undefined })
        .map(historyView),
    ),
  getRootCertificate: (live) => ({
    status: 200,
    text: live.ca.rootCertificatePem,
    contentType: 'application/x-pem-file',
  }),
  advanceClock: (live, input) => {
    const by = body(input).by as string;
    const ms = parseDuration(by);
    if (ms === undefined)
      throw problem('invalid_duration', `${JSON.stringify(by)} is not a duration such as 30s, 10m or 48h`);
    live.simulator.advance(ms);
    return json(200, { by, now: new Date(live.simulator.now).toISOString() });
  },
  loadScenario: async (live, input) => {
    const { name, upTo } = body(input) as { name: string; upTo?: string };
    const loaded = await live.loadScenario(name, upTo);
    if (!loaded.ok) throw problem(loaded.code, loaded.message);
    const played = loaded.played.map((step) => ({
      index: step.index,
      ...(step.name ? { name: step.name } : {}),
      offset: formatOffset(step.offsetMs),
      action: step.action,
      observed: step.observed,
      passed: step.passed,
      failures: step.failures,
    }));
    return json(200, {
      name,
      ...(upTo ? { upTo } : {}),
      description: loaded.description,
      played,
      passed: loaded.passed,
    });
  },
  resetWorld: (live) => {
    live.reset();
    return json(200, worldView(live.simulator, live.projectId, live.startedAt));
  },
};

/** Answers the control API (spec/domains.yaml) from the live world; every operation has a handler. */
export function controlResponder(live: LiveWorld): Responder {
  return (compiled, input) => {
    const handler = HANDLERS[compiled.operation.operationId ?? ''];
    if (!handler) throw new ProblemError(501, 'not_implemented', `${compiled.operation.id} has no handler`);
    return handler(live, input);
  };
}

/** Operation ids the handlers cover (a test keeps them equal to spec/domains.yaml's). */
export const CONTROL_OPERATIONS = Object.keys(HANDLERS);
