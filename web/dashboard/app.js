// The Domains dashboard and QA bench of `kennel serve`: a client of the control API under
// /__kennel/world (spec/domains.yaml). No framework, no build step. Data reaches the DOM only as
// text (textContent, text nodes), never as HTML: names and values come from users and scenarios.
import { $ } from './dom.js';
import { api, problemText, TOKEN_KEY } from './api.js';
import { renderCa, renderDomains, renderPrimary, renderProject } from './domains.js';
import {
  parseRecordValue,
  renderHistory,
  renderQueries,
  renderScenario,
  renderScenarioPicker,
  renderZones,
  SHOWN,
} from './bench.js';

const POLL_MS = 1000;

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
  renderDomains(world, act);
  renderPrimary(world, act);
  renderCa(world);
  renderZones(world, zones, act);
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
  // One timer at most: a sync started by an action and one started by the timer may overlap.
  clearTimeout(timer);
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
  renderScenario(view.scenario, view.scenarios);
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

/** The settings forms: the admin token, domains and redirects. */
function wireSettings() {
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
}

/** The clock and world buttons: advance, next event, flush the caches, reset. */
function wireClock() {
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
      renderScenario(view.scenario, view.scenarios);
      $('clock-note').textContent = 'world reset';
    }
  });
}

/** DNS records and zones, the settings a DNS provider would hold. */
function wireDns() {
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
}

/** The QA bench: play a bundled scenario or an uploaded file, step by step or to the end. */
function wireScenarios() {
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
}

/** The history and query-log filters refresh as typed; a hidden tab stops polling. */
function wireRefresh() {
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
    renderScenarioPicker(view.scenarios);
  } catch (error) {
    $('scenario-error').textContent = problemText(error);
  }
}

wireSettings();
wireClock();
wireDns();
wireScenarios();
wireRefresh();
// The world first (the picker's list parses every bundled scenario once, so it comes second).
sync().then(loadScenarios);
