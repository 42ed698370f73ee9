// The Domains dashboard and QA bench of `kennel serve`: a client of the control API under
// /__kennel/world (spec/domains.yaml). No framework, no build step. Data reaches the DOM only as
// text (textContent, text nodes), never as HTML: names and values come from users and scenarios.

const API = '/__kennel/world';
const TOKEN_KEY = 'kennel.adminToken';
const POLL_MS = 1000;
const SHOWN = 200;
const THIRTY_MINUTES = 30 * 60_000;

const $ = (id) => document.getElementById(id);

/** An element with attributes, listeners (`onclick`) and children; strings become text nodes. */
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') element.className = value;
    else if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** A problem answer of the control API (its Error body), or a network failure. */
class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(`${API}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'offline', 'kennel serve does not answer: is it still running?');
  }
  const text = await response.text();
  const data = (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
  if (response.ok) return data;
  const problem = typeof data === 'object' && data ? data : { code: 'error', message: text };
  if (response.status === 401) askForToken(problem.message);
  throw new ApiError(response.status, problem.code, problem.message);
}

const problemText = (error) => (error instanceof ApiError ? `${error.message} (${error.code})` : String(error));

function askForToken(message) {
  $('token-form').hidden = false;
  $('token-error').textContent = sessionStorage.getItem(TOKEN_KEY) ? message : '';
  $('token').focus();
}

// --- formatting --------------------------------------------------------------------------------

const when = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '');
const ms = (iso) => Date.parse(iso);

function recordValueText(value) {
  if (typeof value === 'string') return value;
  if (value && 'tag' in value) return `${value.flags} ${value.tag} "${value.value}"`;
  if (value && 'exchange' in value) return `${value.preference} ${value.exchange}`;
  return JSON.stringify(value);
}

/** The `value` field of a new record, from what a person types (`0 issue letsencrypt.org`, `10 mx.example.com`). */
function parseRecordValue(type, text) {
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
  return value;
}

/** A button that copies `text`; where the clipboard is refused it selects the text for Ctrl+C instead. */
function copyButton(text, label) {
  const button = h(
    'button',
    { type: 'button', class: 'copy', 'aria-label': `Copy ${label}`, 'data-copy': text },
    'Copy',
  );
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      // No clipboard permission (or an insecure origin): select the text for the person to copy.
      const field = h('input', { value: text, readonly: true, class: 'copy-fallback', 'aria-label': label });
      button.after(field);
      field.select();
      field.addEventListener('blur', () => field.remove());
      button.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
  return button;
}

// --- state and refresh -------------------------------------------------------------------------

const view = { revision: -1, world: undefined, zones: [], scenarios: [], scenario: undefined, refreshes: 0 };

/** Reloads everything the page shows; an older refresh that finishes late is dropped. */
async function refresh() {
  const mine = ++view.refreshes;
  const [world, zones, history, queries] = await Promise.all([
    api('GET', '/state'),
    api('GET', '/zones'),
    api('GET', `/history${filterQuery('history-filter')}`),
    api('GET', `/dns/queries${filterQuery('query-filter')}`),
  ]);
  if (mine !== view.refreshes) return;
  Object.assign(view, { world, zones });
  renderProject(world);
  renderDomains(world);
  renderPrimary(world);
  renderZones(world, zones);
  renderHistory(history);
  renderQueries(queries);
  if (performance.getEntriesByName('kennel:world-drawn').length === 0) performance.mark('kennel:world-drawn');
}

function filterQuery(formId) {
  const params = new URLSearchParams({ limit: String(SHOWN) });
  for (const [key, value] of new FormData($(formId))) if (String(value).trim()) params.set(key, String(value).trim());
  return `?${params}`;
}

let timer;
/** Asks whether the world moved on and reloads when it did; never while the tab is hidden. */
async function sync() {
  clearTimeout(timer);
  try {
    const { revision } = await api('GET', '/revision');
    if (revision !== view.revision) {
      await refresh();
      view.revision = revision;
    }
    setLive('live', 'live');
  } catch (error) {
    setLive('paused', problemText(error));
  }
  if (!document.hidden) timer = setTimeout(sync, POLL_MS);
}

function setLive(state, text) {
  const live = $('live');
  live.className = `live ${state}`;
  live.textContent = text;
}

/** Runs a change, shows its problem (if any) in `errorId`, then reloads what changed. */
async function act(errorId, change) {
  const output = errorId ? $(errorId) : undefined;
  if (output) output.textContent = '';
  try {
    const result = await change();
    await sync();
    return result;
  } catch (error) {
    if (output) output.textContent = problemText(error);
    else setLive('paused', problemText(error));
    await sync();
    return undefined;
  }
}

// --- the Domains settings ----------------------------------------------------------------------

function renderProject(world) {
  const { project, now } = world;
  $('project').replaceChildren(
    `Project ${project.id} · plan ${project.plan} · ${project.deployed ? 'deployed' : 'not deployed'} · default host `,
    h('code', {}, project.host),
  );
  $('now').textContent = when(now);
  $('now').setAttribute('datetime', now);
}

const zoneFor = (world, name) =>
  world.zones
    .filter((zone) => name === zone.apex || name.endsWith(`.${zone.apex}`))
    .sort((a, b) => b.apex.length - a.apex.length)[0];

function renderDomains(world) {
  const list = world.domains.map((domain) => domainCard(world, domain));
  $('domains').replaceChildren(...(list.length ? list : [h('p', { class: 'note' }, 'No custom domain yet.')]));
}

function badge(state) {
  return h('span', { class: `badge ${state}` }, state.replace('_', ' '));
}

function evidenceList(evidence) {
  const rows = [];
  const add = (label, values) => {
    if (!values || values.length === 0) return;
    rows.push(h('dt', {}, label), h('dd', {}, ...[].concat(values).map((value) => h('code', {}, value))));
  };
  add('Expected', evidence.expected);
  add('Observed', evidence.observed);
  add('Still pending', evidence.pending);
  add('Retry at', evidence.retryAt && when(evidence.retryAt));
  if (evidence.hint) rows.push(h('dt', {}, 'Hint'), h('dd', {}, evidence.hint));
  return rows.length ? h('dl', { class: 'evidence' }, rows) : undefined;
}

function recordsToCreate(world, domain) {
  const zone = zoneFor(world, domain.name);
  const provider = zone && world.providers.find((candidate) => candidate.id === zone.provider);
  const rows = domain.records.map((record) => {
    const type = [record.type, ...record.alternatives].join(' or ');
    return h(
      'tr',
      {},
      h('td', {}, type),
      h('td', {}, h('code', {}, record.name), ' ', copyButton(record.name, `name ${record.name}`)),
      h('td', {}, h('code', {}, record.value), ' ', copyButton(record.value, `value ${record.value}`)),
      h('td', {}, String(record.ttl)),
    );
  });
  const apexNote =
    domain.apex &&
    h(
      'p',
      { class: provider && !provider.supportsAlias ? 'warning' : 'note' },
      'An apex domain needs an ALIAS or ANAME record (a CNAME cannot sit at the apex). ',
      provider &&
        (provider.supportsAlias
          ? `${provider.name} supports ALIAS.`
          : `${provider.name} does not support ALIAS or ANAME: move the DNS to a provider that does, add A records for ${world.platform.addresses.join(', ')}, or use a subdomain such as www.${domain.name}.`),
    );
  return [
    h('h4', {}, 'DNS records to create'),
    h(
      'table',
      { class: 'grid records' },
      h('tr', {}, h('th', {}, 'Type'), h('th', {}, 'Name'), h('th', {}, 'Value'), h('th', {}, 'TTL')),
      rows,
    ),
    apexNote,
  ];
}

function certificateBlock(world, domain) {
  const certificate = domain.certificate;
  const facts = [];
  if (certificate.since) facts.push(`since ${when(certificate.since)}`);
  if (certificate.attempts) facts.push(`${certificate.attempts} attempt${certificate.attempts === 1 ? '' : 's'}`);
  if (certificate.nextAttemptAt) facts.push(`next attempt ${when(certificate.nextAttemptAt)}`);
  if (certificate.issued)
    facts.push(`serial ${certificate.issued.serialNumber}, valid until ${when(certificate.issued.notAfter)}`);
  const late =
    certificate.state === 'timed_out' ||
    (certificate.state === 'pending' && certificate.since && ms(world.now) - ms(certificate.since) >= THIRTY_MINUTES);
  return [
    h('h4', {}, 'Certificate ', badge(certificate.state), ' ', h('code', { class: 'reason' }, certificate.reason)),
    h('p', { class: 'message' }, certificate.message),
    facts.length ? h('p', { class: 'note' }, facts.join(' · ')) : undefined,
    certificate.lastError &&
      h(
        'p',
        { class: 'last-error' },
        'Last error ',
        h('code', {}, certificate.lastError.reason),
        `: ${certificate.lastError.message} (${when(certificate.lastError.at)})`,
      ),
    late &&
      h(
        'div',
        { class: 'guidance', role: 'note' },
        h('strong', {}, 'No certificate after 30 minutes.'),
        h(
          'ol',
          {},
          h('li', {}, 'Confirm the domain still verifies.'),
          h('li', {}, `Check that CAA records do not block the certificate authority (${world.platform.caIdentity}).`),
          h('li', {}, 'Use Re-verify.'),
        ),
      ),
    evidenceList(certificate.evidence),
  ];
}

function domainCard(world, domain) {
  const name = domain.name;
  const path = `/domains/${encodeURIComponent(name)}`;
  const errorId = `error-${name}`;
  const isPrimary = world.project.primary === name;
  return h(
    'article',
    { class: 'domain', 'data-domain': name },
    h(
      'header',
      {},
      h('h3', {}, domain.unicode !== name ? `${domain.unicode} (${name})` : name),
      isPrimary && h('span', { class: 'badge primary' }, 'primary'),
      h('span', { class: 'kind' }, domain.apex ? 'apex domain' : 'subdomain'),
    ),
    h('h4', {}, 'DNS ', badge(domain.dns.state), ' ', h('code', { class: 'reason' }, domain.dns.reason)),
    h('p', { class: 'message' }, domain.dns.message),
    evidenceList(domain.dns.evidence),
    recordsToCreate(world, domain),
    certificateBlock(world, domain),
    h(
      'p',
      { class: 'row actions' },
      h('button', { type: 'button', onclick: () => act(errorId, () => api('POST', `${path}/verify`)) }, 'Verify'),
      h('button', { type: 'button', onclick: () => act(errorId, () => api('POST', `${path}/reverify`)) }, 'Re-verify'),
      !isPrimary &&
        h(
          'button',
          { type: 'button', onclick: () => act(errorId, () => api('PUT', '/primary', { name })) },
          'Make primary',
        ),
      h(
        'details',
        { class: 'menu' },
        h('summary', { 'aria-label': `More actions for ${name}` }, '⋯'),
        h(
          'button',
          { type: 'button', class: 'danger', onclick: () => act(errorId, () => api('DELETE', path)) },
          'Remove',
        ),
      ),
    ),
    h('output', { id: errorId, class: 'error' }),
  );
}

function renderPrimary(world) {
  const { project, domains } = world;
  $('primary').textContent = project.primary
    ? `Primary domain: ${project.primary}`
    : `No primary domain: the site answers at ${project.host}.`;
  const rows = project.redirects.map((redirect) =>
    h(
      'tr',
      {},
      h('td', {}, redirect.from),
      h('td', {}, '→ ', redirect.to),
      h('td', {}, String(redirect.status)),
      h(
        'td',
        {},
        h(
          'button',
          {
            type: 'button',
            onclick: () =>
              act('redirect-error', () => api('DELETE', `/redirects/${encodeURIComponent(redirect.from)}`)),
          },
          'Remove',
        ),
      ),
    ),
  );
  $('redirects').replaceChildren(...rows);
  for (const id of ['redirect-from', 'redirect-to']) {
    const select = $(id);
    const chosen = select.value;
    select.replaceChildren(...domains.map((domain) => h('option', { selected: domain.name === chosen }, domain.name)));
  }
}

// --- the bench: zones, records, scenarios, timeline, query log ---------------------------------

function renderZones(world, zones) {
  const providerSelect = $('zone-provider');
  if (providerSelect.options.length === 0)
    providerSelect.replaceChildren(
      ...world.providers.map((provider) => h('option', { value: provider.id }, provider.name)),
    );
  $('zones').replaceChildren(...zones.map((zone) => zoneCard(world, zone)));
}

function zoneCard(world, zone) {
  const provider = world.providers.find((candidate) => candidate.id === zone.provider);
  const failing = zone.failing.length > 0;
  const now = ms(world.now);
  const rows = zone.records.map((record) =>
    h(
      'tr',
      { 'data-record': record.id },
      h('td', {}, record.name),
      h('td', {}, record.type),
      h('td', {}, h('code', {}, recordValueText(record.value))),
      h('td', {}, String(record.ttl)),
      h('td', {}, ms(record.visibleAt) > now ? `publishing at ${when(record.visibleAt)}` : 'answered'),
      h(
        'td',
        {},
        h(
          'button',
          {
            type: 'button',
            onclick: () => act(`zone-error-${zone.apex}`, () => api('DELETE', `/records/${record.id}`)),
          },
          'Remove',
        ),
      ),
    ),
  );
  const outage = h('input', { type: 'checkbox', checked: failing });
  outage.addEventListener('change', () =>
    act(`zone-error-${zone.apex}`, () =>
      api('PUT', `/zones/${encodeURIComponent(zone.apex)}/failing`, { types: outage.checked ? ['*'] : [] }),
    ),
  );
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
      outage,
      ' Outage: name servers answer SERVFAIL',
      failing ? ` (${zone.failing.join(', ')})` : '',
    ),
    rows.length ? h('table', { class: 'grid' }, rows) : h('p', { class: 'note' }, 'No records.'),
    h('output', { id: `zone-error-${zone.apex}`, class: 'error' }),
  );
}

function renderHistory(events) {
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

function renderQueries(queries) {
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

function renderScenarioPicker() {
  $('scenario-pick').replaceChildren(
    ...view.scenarios.map((scenario) => h('option', { value: scenario.name }, scenario.name)),
  );
}

/** Loads the chosen scenario with `steps` steps played (stepping replays from the start: the world is deterministic). */
async function playScenario(steps) {
  const scenario = view.scenario;
  if (!scenario) return;
  const body =
    scenario.source === undefined
      ? { name: scenario.name, steps }
      : { source: scenario.source, name: scenario.name, steps };
  const buttons = [$('scenario-step'), $('scenario-all')];
  for (const button of buttons) button.disabled = true;
  const run = await act('scenario-error', () => api('POST', '/scenario', body));
  for (const button of buttons) button.disabled = false;
  if (!run) return;
  scenario.run = run;
  renderScenario();
}

function renderScenario() {
  const scenario = view.scenario;
  $('scenario-view').hidden = !scenario?.run;
  if (!scenario?.run) return;
  const { run } = scenario;
  const summary = view.scenarios.find((candidate) => candidate.name === scenario.name && scenario.source === undefined);
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

// --- forms ------------------------------------------------------------------------------------

/** Handles a form's submit; its fields stay disabled until the request is answered, so nothing is sent twice. */
function onSubmit(id, handler) {
  const form = $(id);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const fields = [...form.elements].filter((field) => !field.disabled);
    for (const field of fields) field.disabled = true;
    try {
      await handler(data, form);
    } finally {
      for (const field of fields) field.disabled = false;
    }
  });
}

function wire() {
  onSubmit('token-form', (data, form) => {
    sessionStorage.setItem(TOKEN_KEY, String(data.get('token')));
    form.hidden = true;
    form.reset();
    return Promise.all([sync(), loadScenarios()]);
  });
  onSubmit('add-domain', async (data, form) => {
    if (await act('domain-name-error', () => api('POST', '/domains', { name: String(data.get('name')).trim() })))
      form.reset();
  });
  onSubmit('add-redirect', (data) =>
    act('redirect-error', () => api('POST', '/redirects', { from: data.get('from'), to: data.get('to'), status: 301 })),
  );
  onSubmit('advance', async (data) => {
    $('clock-note').textContent = '';
    const moved = await act('advance-error', () =>
      api('POST', '/clock/advance', { by: String(data.get('by')).trim() }),
    );
    if (moved) $('clock-note').textContent = `moved ${moved.by}`;
  });
  $('next-event').addEventListener('click', async () => {
    $('clock-note').textContent = '';
    const moved = await act('advance-error', () => api('POST', '/clock/advance', { until: 'next-event' }));
    if (moved) $('clock-note').textContent = `moved ${moved.by} to the next ${moved.event} event`;
  });
  $('flush').addEventListener('click', async () => {
    const flushed = await act('advance-error', () => api('POST', '/dns/flush'));
    if (flushed)
      $('clock-note').textContent =
        `flushed ${flushed.flushed.map((cache) => `${cache.resolver} ${cache.entries}`).join(', ')}`;
  });
  $('reset').addEventListener('click', async () => {
    if (await act('advance-error', () => api('POST', '/reset'))) {
      view.scenario = undefined;
      renderScenario();
      $('clock-note').textContent = 'world reset';
    }
  });
  onSubmit('add-record', async (data, form) => {
    const added = await act('record-error', () => {
      const type = String(data.get('type'));
      const record = {
        name: String(data.get('name')).trim(),
        type,
        value: parseRecordValue(type, String(data.get('value'))),
      };
      const ttl = String(data.get('ttl')).trim();
      if (ttl) record.ttl = Number(ttl);
      return api('POST', '/records', record);
    });
    if (added) form.reset();
  });
  onSubmit('add-zone', async (data, form) => {
    if (
      await act('zone-error', () =>
        api('POST', '/zones', { apex: String(data.get('apex')).trim(), provider: data.get('provider') }),
      )
    )
      form.reset();
  });
  onSubmit('scenario', (data) => {
    view.scenario = { name: String(data.get('name')) };
    $('scenario-file').value = '';
    return playScenario(0);
  });
  $('scenario-file').addEventListener('change', async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    if (file.size > 1_000_000) {
      $('scenario-error').textContent = `${file.name} is ${file.size} bytes: a scenario file is at most 1 MB`;
      return;
    }
    view.scenario = {
      name: file.name.replace(/\.(ya?ml|json)$/i, '').slice(0, 200) || 'scenario',
      source: await file.text(),
    };
    playScenario(0);
  });
  $('scenario-step').addEventListener('click', () => playScenario(view.scenario.run.played.length + 1));
  $('scenario-all').addEventListener('click', () => playScenario(view.scenario.run.total));
  for (const id of ['history-filter', 'query-filter']) {
    const form = $(id);
    form.addEventListener('submit', (event) => event.preventDefault());
    form.addEventListener('input', () => refresh().catch((error) => setLive('paused', problemText(error))));
  }
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) clearTimeout(timer);
    else sync();
  });
}

async function loadScenarios() {
  try {
    view.scenarios = await api('GET', '/scenarios');
    renderScenarioPicker();
  } catch (error) {
    $('scenario-error').textContent = problemText(error);
  }
}

wire();
// The world first (the picker's list parses every bundled scenario once, so it comes second).
sync().then(loadScenarios);
