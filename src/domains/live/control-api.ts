import { formatDuration, formatOffset, readDuration } from '../../core/duration.js';
import { ProblemError } from '../../core/problem.js';
import type { HttpResponse } from '../../http/http-response.js';
import type { Responder } from '../../http/responder.js';
import { RECORD_TYPES, type QueryType } from '../sim/dns-types.js';
import { DNSSEC_STATES } from '../sim/dnssec.js';
import type { LiveWorld } from './live-world.js';
import {
  invalidBody,
  member,
  newest,
  optional,
  own,
  ownData,
  param,
  query,
  text,
  type Input,
} from './control-input.js';
import { json, problem, unwrap } from './control-problems.js';
import { PLANS } from '../sim/model.js';
import { checkName } from '../sim/names.js';
import {
  dnsQueryAnswer,
  dnsRecordAnswer,
  domainAnswer,
  historyAnswer,
  projectAnswer,
  queryLogAnswer,
  servedAnswer,
  userZones,
  worldAnswer,
  zoneAnswer,
} from './control-answers.js';

type Handler = (live: LiveWorld, input: Input) => HttpResponse | Promise<HttpResponse>;

function project(live: LiveWorld) {
  return unwrap(live.simulator.project(live.projectId));
}

function domainResponse(live: LiveWorld, status: number, name: string): HttpResponse {
  const owner = project(live);
  const domain = live.simulator.domain(owner.id, name);
  if (!domain) throw problem('domain_not_found', `${name} is not attached to project ${owner.id}`);
  return json(status, domainAnswer(live.simulator, owner, domain));
}

function zoneOf(live: LiveWorld, apex: string) {
  const checked = checkName(apex);
  const zone = checked.ok ? userZones(live.simulator).find((candidate) => candidate.apex === checked.name) : undefined;
  if (!zone) throw problem('zone_not_found', `no simulated zone ${apex}`);
  return zone;
}

function recordOf(live: LiveWorld, input: Input) {
  const found = live.simulator.zones.record(Number(param(input, 'id')));
  if (!found) throw problem('record_not_found', `no record ${param(input, 'id')}`);
  return found.record;
}

const HANDLERS: Record<string, Handler> = {
  getWorld: (live) => json(200, worldAnswer(live.simulator, live.projectId, live.startedAt)),
  updateProject: (live, input) => {
    const given = optional<string>(input, 'plan', 'string');
    const plan = given === undefined ? undefined : member('plan', given, PLANS);
    const deployed = optional<boolean>(input, 'deployed', 'boolean');
    if (plan === undefined && deployed === undefined)
      throw new ProblemError(400, 'invalid_body', 'Request body is invalid: send plan, deployed or both');
    if (plan !== undefined) unwrap(live.simulator.setPlan(live.projectId, plan));
    if (deployed !== undefined) unwrap(live.simulator.setDeployed(live.projectId, deployed));
    return json(200, projectAnswer(project(live)));
  },
  listDomains: (live) => {
    const owner = project(live);
    return json(
      200,
      [...owner.domains.values()].map((domain) => domainAnswer(live.simulator, owner, domain)),
    );
  },
  addDomain: (live, input) => {
    const added = unwrap(live.simulator.addDomain(live.projectId, text(input, 'name')));
    return json(201, domainAnswer(live.simulator, project(live), added.domain));
  },
  getDomain: (live, input) => domainResponse(live, 200, param(input, 'name')),
  removeDomain: (live, input) => {
    const removed = unwrap(live.simulator.removeDomain(live.projectId, param(input, 'name')));
    return json(200, domainAnswer(live.simulator, project(live), removed));
  },
  verifyDomain: (live, input) => {
    const domain = unwrap(live.simulator.verify(live.projectId, param(input, 'name')));
    return json(200, domainAnswer(live.simulator, project(live), domain));
  },
  reverifyDomain: (live, input) => {
    const domain = unwrap(live.simulator.verify(live.projectId, param(input, 'name'), { reverify: true }));
    return json(200, domainAnswer(live.simulator, project(live), domain));
  },
  getDomainCertificate: async (live, input) => {
    const name = param(input, 'name');
    const checked = checkName(name);
    const minted = checked.ok ? await live.certificateFor(checked.name, Date.now()) : undefined;
    if (!minted) throw problem('certificate_not_issued', `no certificate has been issued for ${name}`);
    return { status: 200, text: minted.chainPem, contentType: 'application/x-pem-file' };
  },
  setPrimary: (live, input) =>
    json(200, projectAnswer(unwrap(live.simulator.setPrimary(live.projectId, text(input, 'name'))))),
  addRedirect: (live, input) => {
    const [from, to] = [text(input, 'from'), text(input, 'to')];
    const status = optional<number>(input, 'status', 'number') ?? 301;
    const updated = unwrap(live.simulator.addRedirect(live.projectId, { from, to, status }));
    return json(201, updated.redirects.at(-1));
  },
  removeRedirect: (live, input) =>
    json(200, projectAnswer(unwrap(live.simulator.removeRedirect(live.projectId, param(input, 'from'))))),
  listZones: (live) =>
    json(
      200,
      userZones(live.simulator).map((zone) => zoneAnswer(live.simulator, zone)),
    ),
  addZone: (live, input) => {
    const [apex, provider] = [text(input, 'apex'), text(input, 'provider')];
    const checked = checkName(apex);
    if (checked.ok && live.simulator.zones.list().some((zone) => zone.apex === checked.name))
      throw problem('zone_exists', `${checked.name} is already a simulated zone`);
    const added = unwrap(live.simulator.addZone(apex, provider));
    return json(201, zoneAnswer(live.simulator, zoneOf(live, added)));
  },
  getZone: (live, input) => json(200, zoneAnswer(live.simulator, zoneOf(live, param(input, 'apex')))),
  setZoneFailures: (live, input) => {
    const zone = zoneOf(live, param(input, 'apex'));
    const types = own(input.body.value, 'types');
    if (!Array.isArray(types) || !types.every((type) => typeof type === 'string')) throw invalidBody('types', 'a list');
    live.simulator.setZoneFailing(zone.apex, types as (QueryType | '*')[]);
    return json(200, zoneAnswer(live.simulator, zone));
  },
  setZoneDnssec: (live, input) => {
    const zone = zoneOf(live, param(input, 'apex'));
    live.simulator.setZoneDnssec(zone.apex, member('state', text(input, 'state'), DNSSEC_STATES));
    return json(200, zoneAnswer(live.simulator, zone));
  },
  listRecords: (live) =>
    json(
      200,
      userZones(live.simulator).flatMap((zone) => live.simulator.zones.saved(zone).map(dnsRecordAnswer)),
    ),
  addRecord: (live, input) => {
    const change = live.simulator.addRecord({
      name: text(input, 'name'),
      type: member('type', text(input, 'type'), RECORD_TYPES),
      data: ownData(own(input.body.value, 'value')),
      ttl: optional<number>(input, 'ttl', 'number'),
    });
    if (!change.ok) throw problem(change.code, change.message);
    return json(201, dnsRecordAnswer(change.record));
  },
  getRecord: (live, input) => json(200, dnsRecordAnswer(recordOf(live, input))),
  removeRecord: (live, input) => {
    const record = recordOf(live, input);
    unwrap(live.simulator.removeRecords({ name: record.name, type: record.type, data: record.data }));
    return json(200, dnsRecordAnswer(record));
  },
  queryDns: (live, input) => {
    const [name, type] = [query(input, 'name') ?? '', query(input, 'type') as QueryType];
    const options = { checkingDisabled: String(own(input.query, 'cd')) === 'true' };
    return json(
      200,
      dnsQueryAnswer(unwrap(live.simulator.query(query(input, 'resolver') ?? 'public', name, type, options))),
    );
  },
  serveSite: (live, input) => {
    let url: URL;
    try {
      url = new URL(query(input, 'url') ?? '');
    } catch {
      throw problem('invalid_url', `${JSON.stringify(query(input, 'url'))} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw problem('invalid_url', 'the URL must be http or https');
    return json(
      200,
      servedAnswer(
        live.simulator.serve({
          host: url.hostname,
          path: `${url.pathname}${url.search}`,
          scheme: url.protocol === 'https:' ? 'https' : 'http',
          method: query(input, 'method') ?? 'GET',
        }),
      ),
    );
  },
  listHistory: (live, input) =>
    json(
      200,
      newest(input, live.simulator.history.list({ subject: query(input, 'subject'), kind: query(input, 'kind') })).map(
        historyAnswer,
      ),
    ),
  listDnsQueries: (live, input) => {
    // Names are kept as resolvers saw them (lower case, no trailing dot): the filter reads the same way.
    const name = query(input, 'name')?.toLowerCase().replace(/\.$/, '');
    const filter = { name, resolver: query(input, 'resolver'), rcode: query(input, 'rcode') };
    return json(200, newest(input, live.simulator.queryLog.list(filter)).map(queryLogAnswer));
  },
  getRootCertificate: (live) => ({
    status: 200,
    text: live.ca.rootCertificatePem,
    contentType: 'application/x-pem-file',
  }),
  advanceClock: (live, input) => {
    const until = optional<string>(input, 'until', 'string');
    if (until === undefined) {
      const by = text(input, 'by');
      const duration = readDuration(by);
      if (!duration.ok) throw problem('invalid_duration', duration.reason);
      unwrap(live.simulator.advance(duration.ms));
      return json(200, { by, now: new Date(live.simulator.now).toISOString() });
    }
    if (own(input.body.value, 'by') !== undefined)
      throw new ProblemError(400, 'invalid_body', 'Request body is invalid: send by or until, not both');
    const now = () => new Date(live.simulator.now).toISOString();
    if (member('until', until, ['next-event', 'certificate-issued']) === 'next-event') {
      const moved = unwrap(live.advanceToNextEvent());
      return json(200, { by: formatDuration(moved.movedMs), now: now(), until, event: moved.event });
    }
    const moved = unwrap(live.advanceUntilIssued(text(input, 'domain')));
    const { state, reason } = moved.certificate;
    return json(200, { by: formatDuration(moved.movedMs), now: now(), until, certificate: { state, reason } });
  },
  flushCaches: (live) => json(200, { flushed: live.flushCaches() }),
  loadScenario: async (live, input) => {
    const source = optional<string>(input, 'source', 'string');
    const upTo = optional<string>(input, 'upTo', 'string');
    const steps = optional<number>(input, 'steps', 'number');
    const name = source === undefined ? text(input, 'name') : (optional<string>(input, 'name', 'string') ?? 'scenario');
    const loaded =
      source === undefined
        ? await live.loadScenario(name, { upTo, steps })
        : await live.loadScenarioText(source, name, { upTo, steps });
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
      total: loaded.total,
    });
  },
  listScenarios: async (live) => json(200, await live.scenarioSummaries()),
  getRevision: (live) => json(200, { revision: live.revision, now: new Date(live.simulator.now).toISOString() }),
  resetWorld: (live) => {
    live.reset();
    return json(200, worldAnswer(live.simulator, live.projectId, live.startedAt));
  },
};

/**
 * Answers the control API (spec/domains.yaml) from the live world; every operation has a handler.
 * Requests run one at a time, in the order they arrive, so no write lands in a world that a
 * scenario load (which awaits its file) is about to replace.
 */
export function controlResponder(live: LiveWorld): Responder {
  return (compiled, input) => {
    const handler = Object.hasOwn(HANDLERS, compiled.operation.operationId ?? '')
      ? HANDLERS[compiled.operation.operationId!]
      : undefined;
    if (!handler) throw new ProblemError(501, 'not_implemented', `${compiled.operation.id} has no handler`);
    // Reads leave the world as it was; every other request (and a DNS question, which the query log keeps) moves the revision.
    const changes = compiled.operation.method !== 'get' || compiled.operation.operationId === 'queryDns';
    return live.exclusive(async () => {
      try {
        return await handler(live, input);
      } finally {
        if (changes) live.touch();
      }
    });
  };
}

/** Operation ids the handlers cover (a test keeps them equal to spec/domains.yaml's). */
export const CONTROL_OPERATIONS = Object.keys(HANDLERS);
