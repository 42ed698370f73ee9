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

const LIMIT_NAMES = {
  duplicate: 'certificates for exactly',
  'registered-domain': 'new certificates under',
};

/** A period in ms as the dashboard says it: 7d, 33h 36m, 201m. */
function span(periodMs) {
  const minutes = Math.round(periodMs / 60_000);
  if (minutes % 1440 === 0) return `${minutes / 1440}d`;
  if (minutes >= 120) return `${Math.floor(minutes / 60)}h${minutes % 60 ? ` ${minutes % 60}m` : ''}`;
  return `${minutes}m`;
}

/** The rate limits that cover `name`: its exact set, and its registered domain. */
const limitsFor = (world, name) =>
  world.ca.limits.filter((limit) =>
    limit.limit === 'duplicate'
      ? limit.subject.split(',').includes(name)
      : name === limit.subject || name.endsWith(`.${limit.subject}`),
  );

function limitText(limit) {
  return `${limit.remaining} of ${limit.count} ${LIMIT_NAMES[limit.limit]} ${limit.subject} left per ${span(limit.periodMs)}; the next comes back ${when(limit.nextAt)}`;
}

/** The CA's policy and every rate limit it has counted something under, blocked ones first. */
export function renderCa(world) {
  const { policy, limits } = world.ca;
  const rule = (limit, what) => (limit ? `${limit.count} ${what} per ${span(limit.periodMs)}` : `no limit on ${what}`);
  const rules = [
    rule(policy.duplicateCertificates, 'certificates for the same set of names'),
    rule(policy.certificatesPerRegisteredDomain, 'new certificates per registered domain'),
    policy.rejectReservedLabels ? 'reserved labels (ab--) refused' : 'reserved labels allowed',
  ];
  const rows = limits.map((limit) =>
    h(
      'tr',
      { class: limit.blocked ? 'blocked' : '', 'data-limit': `${limit.limit}:${limit.subject}` },
      h('td', {}, LIMIT_NAMES[limit.limit]),
      h('td', {}, h('code', {}, limit.subject)),
      h('td', {}, `${limit.remaining} of ${limit.count}`, limit.blocked ? h('strong', {}, ' · blocked') : undefined),
      h('td', {}, when(limit.nextAt)),
    ),
  );
  $('ca').replaceChildren(
    h('p', { class: 'note' }, `${world.platform.caIdentity}: ${rules.join(' · ')}.`),
    rows.length
      ? h(
          'table',
          { class: 'grid limits' },
          h('tr', {}, h('th', {}, 'Limit'), h('th', {}, 'For'), h('th', {}, 'Left'), h('th', {}, 'Next back')),
          rows,
        )
      : h('p', { class: 'note' }, 'Nothing counted yet: every limit is full.'),
  );
}

/** On a card: the limits that cover the domain, a warning when one is used up and the domain waits for a certificate. */
function rateLimitNote(world, domain) {
  const limits = limitsFor(world, domain.name);
  if (!limits.length) return undefined;
  const waiting = domain.certificate.state !== 'issued';
  const blocked = waiting ? limits.filter((limit) => limit.blocked) : [];
  return h(
    'p',
    { class: blocked.length ? 'warning rate-limit' : 'note rate-limit', role: blocked.length ? 'note' : undefined },
    blocked.length
      ? `The certificate authority refuses new orders for ${domain.name} (rate_limited) until ${when(
          blocked
            .map((limit) => limit.nextAt)
            .sort()
            .at(-1),
        )}: `
      : 'CA rate limits: ',
    limits.map(limitText).join('; '),
    '.',
  );
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
    rateLimitNote(world, domain),
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
