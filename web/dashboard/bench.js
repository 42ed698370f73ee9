// The QA bench's lists: zones and their records, the timeline, the DNS query log, scenario steps.
import { $, h, ms, recordValueText, when } from './dom.js';
import { api, ApiError } from './api.js';

/** How many of the newest events and queries the page shows. */
export const SHOWN = 200;

export function parseRecordValue(type, text) {
  const value = text.trim();
  if (type === 'CAA') {
    const match = /^(\d+)\s+([A-Za-z0-9]+)\s+"?([^"]*)"?$/.exec(value);
    if (!match)
      throw new ApiError(400, 'invalid_record', 'a CAA value reads: flags tag value, e.g. 0 issue letsencrypt.org');
    return { flags: Number(match[1]), tag: match[2], value: match[3] };
  }
  if (type === 'MX') {
    const match = /^(\d+)\s+(\S+)$/.exec(value);
    if (!match)
      throw new ApiError(400, 'invalid_record', 'an MX value reads: preference exchange, e.g. 10 mail.example.com');
    return { preference: Number(match[1]), exchange: match[2] };
  }
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:@]*)/i.exec(value);
  if (url && ['CNAME', 'ALIAS', 'NS', 'DNAME'].includes(type))
    // What the simulator says for the same mistake (names.ts), rather than the schema's "format hostname".
    throw new ApiError(
      400,
      'invalid_record',
      `${type} value ${value} is a URL, not a domain name: enter only the host name (${url[1]})`,
    );
  return value;
}

/** Each DNS provider's zone with its records and outage switch. */
export function renderZones(world, zones, act) {
  const providerSelect = $('zone-provider');
  if (providerSelect.options.length === 0)
    providerSelect.replaceChildren(
      ...world.providers.map((provider) => h('option', { value: provider.id }, provider.name)),
    );
  $('zones').replaceChildren(...zones.map((zone) => zoneCard(world, zone, act)));
}

function zoneCard(world, zone, act) {
  const provider = world.providers.find((candidate) => candidate.id === zone.provider);
  const failing = zone.failing.length > 0;
  const now = ms(world.now);
  const rows = zone.records.map((record) => recordRow(zone, record, now, act));
  return h(
    'article',
    { class: 'zone', 'data-zone': zone.apex },
    h(
      'h4',
      {},
      zone.apex,
      ' ',
      h(
        'span',
        { class: 'kind' },
        `at ${provider?.name ?? zone.provider}${provider?.supportsAlias ? ' (ALIAS supported)' : ' (no ALIAS)'}`,
      ),
    ),
    h(
      'label',
      { class: 'outage' },
      outageSwitch(zone, act),
      ' Outage: name servers answer SERVFAIL',
      failing ? ` (${zone.failing.join(', ')})` : '',
    ),
    h('label', { class: 'dnssec' }, 'DNSSEC ', dnssecSelect(zone, act), ' ', DNSSEC_NOTES[zone.dnssec] ?? ''),
    rows.length ? h('table', { class: 'grid' }, rows) : h('p', { class: 'note' }, 'No records.'),
    h('output', { id: `zone-error-${zone.apex}`, class: 'error' }),
  );
}

/** A saved record, whether its provider answers with it yet, and its Remove button. */
function recordRow(zone, record, now, act) {
  const remove = () => act(`zone-error-${zone.apex}`, () => api('DELETE', `/records/${record.id}`));
  return h(
    'tr',
    { 'data-record': record.id },
    h('td', {}, record.name),
    h('td', {}, record.type),
    h('td', {}, h('code', {}, recordValueText(record.value))),
    h('td', {}, String(record.ttl)),
    h('td', {}, ms(record.visibleAt) > now ? `publishing at ${when(record.visibleAt)}` : 'answered'),
    h('td', {}, h('button', { type: 'button', onclick: remove }, 'Remove')),
  );
}

/** The checkbox that makes every name server of the zone fail (or answer again). */
/** What each DNSSEC state means for resolvers (docs/domains-realism.md). */
const DNSSEC_NOTES = {
  unsigned: 'no keys, no DS: answered by every resolver',
  signed: 'signed, DS at the parent: validating resolvers set AD',
  'signed-without-ds': 'signed, no DS at the parent: insecure, answered',
  'stale-ds': 'a DS for a key the zone lacks: validating resolvers answer SERVFAIL',
};

function dnssecSelect(zone, act) {
  const select = h(
    'select',
    { 'aria-label': `DNSSEC state of ${zone.apex}` },
    ...Object.keys(DNSSEC_NOTES).map((state) => h('option', { selected: state === zone.dnssec }, state)),
  );
  select.addEventListener('change', () =>
    act(`zone-error-${zone.apex}`, () =>
      api('PUT', `/zones/${encodeURIComponent(zone.apex)}/dnssec`, { state: select.value }),
    ),
  );
  return select;
}

function outageSwitch(zone, act) {
  const outage = h('input', { type: 'checkbox', checked: zone.failing.length > 0 });
  outage.addEventListener('change', () =>
    act(`zone-error-${zone.apex}`, () =>
      api('PUT', `/zones/${encodeURIComponent(zone.apex)}/failing`, { types: outage.checked ? ['*'] : [] }),
    ),
  );
  return outage;
}

/** The timeline, newest first. */
export function renderHistory(events) {
  const shown = events.slice(-SHOWN).reverse();
  $('history').replaceChildren(
    ...shown.map((event) =>
      h(
        'li',
        {},
        h('time', {}, when(event.at)),
        ' ',
        h('code', {}, event.kind),
        ' ',
        event.subject ? h('strong', {}, event.subject) : '',
        ' ',
        event.summary,
      ),
    ),
  );
}

/** The DNS query log, newest first. */
export function renderQueries(queries) {
  const head = h(
    'tr',
    {},
    ...['Time', 'Resolver', 'Name', 'Type', 'Answer', 'Records', 'Cache'].map((title) => h('th', {}, title)),
  );
  const rows = queries
    .slice(-SHOWN)
    .reverse()
    .map((query) =>
      h(
        'tr',
        { class: query.rcode === 'NOERROR' ? '' : 'failed' },
        h('td', { title: when(query.at) }, h('time', {}, when(query.at).slice(11))),
        h('td', {}, query.resolver),
        h('td', {}, query.name),
        h('td', {}, query.type),
        h('td', {}, query.rcode),
        h('td', {}, String(query.answers)),
        h('td', {}, query.fromCache ? 'cached' : ''),
      ),
    );
  $('queries').replaceChildren(head, ...rows);
}

/** The bundled scenarios to choose from. */
export function renderScenarioPicker(scenarios) {
  $('scenario-pick').replaceChildren(
    ...scenarios.map((scenario) => h('option', { value: scenario.name }, scenario.name)),
  );
}

/** The loaded scenario's steps: played (passed or not), next, ahead. */
export function renderScenario(scenario, scenarios) {
  $('scenario-view').hidden = !scenario?.run;
  if (!scenario?.run) return;
  const { run } = scenario;
  const summary = scenarios.find((candidate) => candidate.name === scenario.name && scenario.source === undefined);
  const listed = summary ? summary.steps : run.played;
  $('scenario-description').textContent = `${run.name}: ${run.description}`;
  const failed = run.played.filter((step) => !step.passed).length;
  $('scenario-progress').textContent =
    `${run.played.length} of ${run.total} steps played` +
    (failed ? ` · ${failed} expectation(s) not met` : run.played.length ? ' · all expectations met' : '');
  $('scenario-steps').replaceChildren(
    ...listed.map((step, index) => {
      const played = run.played[index];
      const state = played ? (played.passed ? 'passed' : 'failed') : index === run.played.length ? 'next' : 'ahead';
      return h(
        'li',
        { class: state, 'data-step': index },
        h('code', {}, step.action),
        step.name ? ` (${step.name})` : '',
        played ? h('span', { class: 'observed' }, ` ${played.offset}: ${played.observed}`) : '',
        played && played.failures.length ? h('span', { class: 'failures' }, ` ${played.failures.join('; ')}`) : '',
      );
    }),
  );
  $('scenario-step').disabled = run.played.length >= run.total;
  $('scenario-all').disabled = run.played.length >= run.total;
}
