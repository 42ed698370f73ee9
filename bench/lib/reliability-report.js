// The reliability suite's report: the bounds table (hard bounds decide the exit code, the rest is
// reported), the findings grouped by family, other observations, and the JSON document.
import { formatFixed, formatInt, table } from './report.js';
import { roundTwoLines, roundTwoRows } from './round-two/report.js';

/** The long form fails when sequential GETs after the hostile requests run at less than this share of the speed before. */
const MIN_SPEED_RATIO = 0.5;

/** One row per figure: [label, value, bound, verdict]; verdict PASS/FAIL for hard bounds, '' when reported only. */
function boundsTable(rows) {
  const columns = [{ title: 'figure' }, { title: 'value', right: true }, { title: 'bound' }, { title: '' }];
  return table(
    columns,
    rows.map((row) => [row.label, row.value, row.bound ?? '', row.verdict ?? '']),
  );
}

/** A row of a hard bound. */
function hard(label, value, pass, bound) {
  return { label, value, bound, verdict: pass ? 'PASS' : 'FAIL', hard: true, pass };
}

/** A row that is reported, never gated. */
function reported(label, value, bound = '') {
  return { label, value, bound, verdict: '' };
}

const mb = (value) => (value === undefined ? '-' : `${formatFixed(value, 0)} MB`);
const ms = (value) => (value === undefined ? '-' : `${formatInt(value)} ms`);

/** Findings grouped family -> kind -> variant, each group with its count and first example. */
function groupFindings(findings) {
  const groups = new Map();
  for (const finding of findings) {
    const key = `${finding.family}\u0000${finding.kind}\u0000${finding.variant}`;
    const group = groups.get(key) ?? {
      family: finding.family,
      kind: finding.kind,
      variant: finding.variant,
      count: 0,
      statuses: {},
      example: finding,
    };
    group.count += 1;
    const status = finding.status ?? finding.outcome;
    group.statuses[status] = (group.statuses[status] ?? 0) + 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort(
    (a, b) => a.family.localeCompare(b.family) || a.kind.localeCompare(b.kind) || b.count - a.count,
  );
}

/** The findings as text, at most `perFamily` groups shown per family. */
function findingsText(groups, { perFamily = 12 } = {}) {
  const lines = [];
  let family;
  let shown = 0;
  for (const group of groups) {
    if (group.family !== family) {
      family = group.family;
      shown = 0;
      const all = groups.filter((candidate) => candidate.family === family);
      lines.push(`  ${family} (${all.reduce((sum, candidate) => sum + candidate.count, 0)} findings)`);
    }
    shown += 1;
    if (shown > perFamily) {
      if (shown === perFamily + 1) lines.push('    … more in the JSON report');
      continue;
    }
    const statuses = Object.entries(group.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    lines.push(`    ${group.kind.padEnd(14)} ${group.variant} (${group.count}: ${statuses}): ${group.example.detail}`);
    lines.push(`      request: ${group.example.summary}`);
    if (group.example.body) lines.push(`      body:    ${group.example.body.replace(/\s+/g, ' ').slice(0, 160)}`);
    if (group.example.repro)
      lines.push(
        `      replay:  ${group.example.repro.length > 300 ? `${group.example.repro.slice(0, 300)}…` : group.example.repro}`,
      );
  }
  return lines.join('\n');
}

/**
 * The bounds table, the findings and other observations as text, the JSON report, and the exit
 * code (0 when every hard bound holds, else 1). Nothing here is redacted yet: the caller does it.
 */
export function buildReport(opts, figures, { maxStallMs }) {
  const h = figures.hostile;
  const kinds = (kind) => h.findings.filter((finding) => finding.kind === kind);
  const wellFramedHangs = h.findings.filter((finding) => finding.kind === 'hang' && finding.outcome === 'hang').length;
  const soak5xx = figures.soak?.fiveXx ?? 0;
  const writer5xx = Object.entries(figures.writers?.createStatuses ?? {}).reduce(
    (sum, [status, count]) => sum + (Number(status) >= 500 ? count : 0),
    0,
  );
  const fiveXx = kinds('5xx').length + soak5xx + writer5xx;
  const nonConforming = kinds('non-conforming').length + kinds('no-answer').length;
  const storeChanges =
    figures.stateChanges.hostile.store.length +
    (figures.stateChanges.dns?.store.length ?? 0) +
    (figures.writers
      ? figures.writers.readBackMismatches + figures.writers.crossTenantSightings + figures.writers.duplicateIds
      : 0);
  const worldChanges = figures.stateChanges.hostile.world.length + (figures.stateChanges.dns?.world.length ?? 0);
  const dns = figures.dns;
  const heavyStalls = dns.heavy.map((packet) => ({ ...packet, stallMs: figures.stalls[packet.label]?.maxMs }));
  const maxHeavy = Math.max(0, ...heavyStalls.map((packet) => packet.stallMs ?? 0));
  const familyStalls = Object.entries(figures.stalls)
    .filter(([label]) => label.startsWith('hostile ') && label !== 'hostile checks')
    .map(([label, stall]) => ({ family: label.slice('hostile '.length), maxMs: stall.maxMs ?? 0 }))
    .sort((a, b) => b.maxMs - a.maxMs);
  const worstFamily = familyStalls[0];
  const qrAnswers = dns.qr.udpAnswers + (dns.qr.tcpBytesBack > 0 ? 1 : 0);
  const journalLeaks = h.journal.filter((entry) => entry.leaked?.length > 0);
  const logLeaks = Object.keys(figures.leaks.stdout).length;
  const bannerLeaks = Object.keys(figures.leaks.stderr).length;
  const slow = figures.slow;
  const rssPeak = Math.max(...['idle', 'afterHostile', 'afterDns', 'end'].map((at) => figures.rss[at]?.peakRssMb ?? 0));
  const rows = [
    hard(
      'hostile HTTP requests tried',
      formatInt(h.tried),
      h.tried >= Math.min(1000, opts.profile.requests),
      `>= ${formatInt(Math.min(1000, opts.profile.requests))}`,
    ),
    hard(
      '5xx (hostile / writers / soak)',
      `${fiveXx} (${kinds('5xx').length} / ${writer5xx} / ${soak5xx})`,
      fiveXx === 0,
      '0',
    ),
    hard('non-conforming errors (incl. no answer when due)', formatInt(nonConforming), nonConforming === 0, '0'),
    reported(
      'hostile requests accepted (2xx where refused is due)',
      formatInt(kinds('accepted').length + kinds('smuggled').length + kinds('check').length),
      '0 wanted',
    ),
    reported('hangs (no answer, no close)', `${kinds('hang').length} (${wellFramedHangs} well-framed)`, '0 wanted'),
    reported(
      'connections dropped without an answer',
      formatInt(
        Object.values(h.families).reduce(
          (sum, family) => sum + (family.outcomes.closed ?? 0) + (family.outcomes.reset ?? 0),
          0,
        ),
      ),
    ),
    hard(
      'store differences (hostile, DNS, writers)',
      formatInt(storeChanges),
      storeChanges === 0 && figures.crashes.length === 0,
      '0',
    ),
    reported('world state changes / world resets needed', `${worldChanges} / ${h.worldResets}`, '0 wanted'),
    reported(
      'families after which a canary failed',
      formatInt(new Set(h.brokeServer.map((entry) => entry.family)).size),
      '0 wanted',
    ),
    hard('crashes', formatInt(figures.crashes.length), figures.crashes.length === 0, '0'),
    reported(
      'secrets seen: responses / journal / log / banner',
      `${kinds('leak').length} / ${journalLeaks.length} / ${logLeaks} / ${bannerLeaks}`,
      '0 wanted',
    ),
    hard(
      'DNS packets fuzzed (UDP + TCP + QR=1 + heavy)',
      formatInt(dns.fuzzed),
      dns.fuzzed >= Math.min(5000, opts.profile.dns.udp + opts.profile.dns.tcp),
      '>= 5,000',
    ),
    hard('DNS alive after the fuzz (UDP and TCP)', figures.dnsAliveAtEnd ? 'yes' : 'no', figures.dnsAliveAtEnd, 'yes'),
    hard('answers to QR=1 packets', `${dns.qr.udpAnswers} UDP, ${dns.qr.tcpBytesBack} TCP bytes`, qrAnswers === 0, '0'),
    opts.quick
      ? reported('max HTTP stall from one DNS packet', ms(maxHeavy), `<= ${maxStallMs} ms (long form)`)
      : hard('max HTTP stall from one DNS packet', ms(maxHeavy), maxHeavy <= maxStallMs, `<= ${maxStallMs} ms`),
    reported(
      'max HTTP stall: idle / hostile / DNS flood',
      `${ms(figures.stalls.idle?.maxMs)} / ${ms(worstFamily?.maxMs)} / ${ms(figures.stalls['dns bulk']?.maxMs)}`,
      worstFamily ? `worst hostile family: ${worstFamily.family}` : '',
    ),
    reported(
      'RSS idle / after hostile / after DNS / end / peak',
      `${mb(figures.rss.idle?.rssMb)} / ${mb(figures.rss.afterHostile?.rssMb)} / ${mb(figures.rss.afterDns?.rssMb)} / ${mb(figures.rss.end?.rssMb)} / ${mb(rssPeak)}`,
    ),
    reported(
      'never-reading DNS client: RSS before / peak / after close',
      `${mb(dns.neverRead.rssBeforeMb)} / ${mb(dns.neverRead.rssPeakMb)} / ${mb(dns.neverRead.rssAfterCloseMb)}`,
      `${formatFixed(dns.neverRead.bytesWritten / 2 ** 20, 1)} MB taken${dns.neverRead.backpressure ? ', then backpressure' : dns.neverRead.stuck ? `, server busy (${formatFixed((dns.neverRead.serverCpuWhileStuck ?? 0) * 100, 0)}% CPU)` : ''}`,
    ),
    reported(
      'journal: RSS before / after list responses / after clearing it',
      figures.journal
        ? `${mb(figures.journal.rss.beforeMb)} / ${mb(figures.journal.rss.afterListsMb)} / ${mb(figures.journal.rss.afterClearMb)}`
        : '-',
      figures.journal ? `${formatFixed(figures.journal.listBytes / 2 ** 20, 0)} MB of responses` : '',
    ),
    reported(
      'writers: created / read-back mismatches / cross-tenant',
      figures.writers
        ? `${figures.writers.created} / ${figures.writers.readBackMismatches} / ${figures.writers.crossTenantSightings}`
        : '-',
    ),
    reported(
      'slowloris dropped (within bound) / opened',
      slow ? `${slow.headers.dropped} (${slow.headers.droppedWithinBound}) / ${slow.headers.opened}` : '-',
      opts.profile.slow.boundMs
        ? `all within ${opts.profile.slow.boundMs / 1000} s wanted`
        : `observed ${formatFixed((slow?.headers.observedMs ?? 0) / 1000, 1)} s`,
    ),
    reported('slow bodies dropped / opened', slow ? `${slow.body.dropped} / ${slow.body.opened}` : '-'),
    reported(
      'soak: requests / RSS start / peak / end',
      figures.soak
        ? `${formatInt(figures.soak.requests)} / ${mb(figures.soak.rss.startMb)} / ${mb(figures.soak.rss.peakMb)} / ${mb(figures.soak.rss.endMb)}`
        : '-',
    ),
    speedRow(opts, figures.speed),
    ...roundTwoRows(figures.roundTwo, { hard, reported }),
  ];
  const groups = groupFindings(h.findings);
  const out = [''];
  out.push(
    `kennel reliability (${figures.form} form, seed ${opts.seed}${figures.commit ? `, commit ${figures.commit}` : ''}): ${formatFixed(figures.seconds, 1)} s, Node ${process.version}`,
  );
  out.push('');
  out.push(boundsTable(rows));
  if (groups.length > 0) {
    out.push('');
    out.push(`hostile HTTP findings (${h.findings.length}), by family:`);
    out.push(findingsText(groups));
  }
  const extra = [];
  for (const entry of h.brokeServer) extra.push(`  after ${entry.family}: ${entry.problem}`);
  for (const entry of h.journal)
    extra.push(`  journal after ${entry.family}: ${entry.error ?? `shows part of ${entry.leaked.join(', ')}`}`);
  for (const [label, count] of Object.entries(figures.leaks.stdout))
    extra.push(`  request log (stdout) shows part of ${label} (${count} chunks)`);
  for (const [label, count] of Object.entries(figures.leaks.stderr))
    extra.push(`  stderr (banner) shows part of ${label} (${count} chunks)`);
  for (const entry of h.storeChangedBy)
    extra.push(
      `  the store changed during ${entry.family} (${entry.tenants.join(', ')}): list before ${entry.before}\n      after ${entry.after}`,
    );
  for (const side of ['hostile', 'dns']) extra.push(...changeLines(side, figures.stateChanges[side]));
  for (const stall of familyStalls.filter((entry) => entry.maxMs > maxStallMs))
    extra.push(
      `  HTTP stalled ${ms(stall.maxMs)} while ${stall.family} requests were sent (${opts.profile.concurrency} in flight)`,
    );
  for (const packet of heavyStalls)
    extra.push(
      `  DNS ${packet.name}: HTTP stalled ${ms(packet.stallMs)}, DNS answered again after ${ms(packet.dnsBackMs)}`,
    );
  for (const finding of figures.writers?.findings ?? []) extra.push(`  writers: ${finding.detail}`);
  for (const sample of figures.soak?.fiveXxSamples ?? []) extra.push(`  soak 5xx: ${sample}`);
  extra.push(...roundTwoLines(figures.roundTwo));
  for (const crash of figures.crashes)
    extra.push(`  crash during ${crash.phase}: code ${crash.code}, signal ${crash.signal}\n${crash.output}`);
  if (extra.length > 0) out.push('', 'other observations:', ...extra);
  const failedRows = rows.filter((row) => row.hard && !row.pass);
  out.push('');
  out.push(
    failedRows.length === 0
      ? 'every hard bound holds'
      : `${failedRows.length} hard bound(s) broken: ${failedRows.map((row) => row.label).join('; ')}`,
  );

  const json = {
    ...figures,
    options: { quick: opts.quick, seed: opts.seed, only: opts.only, profile: opts.profile },
    bounds: rows,
    hardFailures: failedRows.map((row) => row.label),
    summary: {
      tried: h.tried,
      fiveXx,
      nonConforming,
      accepted: kinds('accepted').length,
      hangs: kinds('hang').length,
      storeChanges,
      worldChanges,
      crashes: figures.crashes.length,
      dnsPackets: dns.fuzzed,
      dnsAlive: figures.dnsAliveAtEnd,
      qrAnswers,
      maxHeavyStallMs: maxHeavy,
      hostileStalls: familyStalls,
      roundTwo: figures.roundTwo
        ? {
            families: Object.keys(figures.roundTwo.families),
            findings: figures.roundTwo.findings.length,
            byFamily: Object.fromEntries(
              Object.entries(figures.roundTwo.families).map(([name, family]) => [name, family.findings.length]),
            ),
          }
        : undefined,
    },
    groups: groups.map(({ example, ...group }) => ({ ...group, example })),
    hostile: { ...h, findings: h.findings.slice(0, 5000) },
    dns: { ...dns, heavy: heavyStalls },
  };
  return { text: out.join('\n'), json, code: failedRows.length === 0 ? 0 : 1 };
}

/**
 * Sequential GETs after the hostile phase and at the end against before it. Timing on a shared
 * machine is noisy: the long form only fails a server that lost half its speed, the quick form never.
 */
function speedRow(opts, speed) {
  const afterHostile = speed.afterHostile / speed.before;
  const label = 'speed after hostile / at end vs before';
  const value = `${formatFixed(afterHostile)} / ${formatFixed(speed.atEnd / speed.before)}`;
  const note = `${formatInt(speed.before)} req/s before`;
  if (opts.quick) return reported(label, value, `${note}; >= ${MIN_SPEED_RATIO} wanted (long form)`);
  return hard(label, value, afterHostile >= MIN_SPEED_RATIO, `>= ${MIN_SPEED_RATIO} after hostile (${note})`);
}

/** State differences, at most one example per tenant (a re-seeded store differs everywhere). */
function changeLines(side, changes) {
  if (!changes) return [];
  const lines = [];
  const byTenant = Map.groupBy(changes.store, (change) => change.tenant ?? 'store');
  for (const [tenant, list] of byTenant) {
    const [first] = list;
    lines.push(`  ${list.length} difference(s) in ${tenant} across the ${side} phase; first: ${first.where}`);
    if (first.before !== undefined) lines.push(`      before: ${first.before}`, `      after:  ${first.after}`);
  }
  for (const change of changes.world)
    lines.push(
      `  world differs across the ${side} phase: ${change.where}`,
      `      before: ${change.before}`,
      `      after:  ${change.after}`,
    );
  return lines;
}
