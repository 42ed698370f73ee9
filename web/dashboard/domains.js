// The Domains settings: the project, each domain's card, the primary domain and redirects.
import { $, badge, copyButton, evidenceList, h, ms, when } from './dom.js';
import { api } from './api.js';

// `act(errorId, change)` (app.js) runs a change, shows its problem in `errorId`, and reloads.

const THIRTY_MINUTES = 30 * 60_000;

/** The header line: project, plan, deploy state, default host; and the virtual now. */
export function renderProject(world) {
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

/** One card per attached domain. */
export function renderDomains(world, act) {
  const list = world.domains.map((domain) => domainCard(world, domain, act));
  $('domains').replaceChildren(...(list.length ? list : [h('p', { class: 'note' }, 'No custom domain yet.')]));
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
  const cachedUntil = certificate.state !== 'issued' && certificate.evidence.cachedUntil;
  const cached =
    cachedUntil &&
    ms(cachedUntil) > ms(world.now) &&
    h(
      'p',
      { class: 'warning cached', role: 'note' },
      `The certificate authority still reads a cached DNS answer until ${when(cachedUntil)} (its resolver keeps it for the record's TTL): a change made since is seen after that.`,
    );
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
    cached,
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

function domainCard(world, domain, act) {
  const name = domain.name;
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
    domainActions(domain, isPrimary, act),
    h('output', { id: errorId, class: 'error' }),
  );
}

/** Verify, Re-verify, Make primary (unless it is) and, behind a menu, Remove. */
function domainActions(domain, isPrimary, act) {
  const name = domain.name;
  const path = `/domains/${encodeURIComponent(name)}`;
  const errorId = `error-${name}`;
  return h(
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
  );
}

/** The primary domain, the redirects and the redirect form's choices. */
export function renderPrimary(world, act) {
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
  const names = domains.map((domain) => domain.name);
  const from = fillSelect($('redirect-from'), names, [names.find((name) => name !== project.primary)]);
  fillSelect(
    $('redirect-to'),
    names,
    [project.primary, ...names].filter((name) => name !== from),
  );
}

/**
 * The select's options, keeping the person's choice; with nothing chosen yet, the first of
 * `preferred` (the redirect form starts at "another domain → the primary", never "a → a", which
 * the platform refuses).
 */
function fillSelect(select, names, preferred) {
  const kept = names.includes(select.value) && select.dataset.chosen === 'yes' ? select.value : undefined;
  const chosen = kept ?? preferred.find((name) => name !== undefined && names.includes(name)) ?? names[0];
  select.replaceChildren(...names.map((name) => h('option', { selected: name === chosen }, name)));
  if (!select.dataset.listening) {
    select.dataset.listening = 'yes';
    select.addEventListener('change', () => (select.dataset.chosen = 'yes'));
  }
  return chosen;
}
