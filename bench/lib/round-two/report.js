// The second round's rows of the reliability report: hard bounds (nothing smuggled, lost, handed
// out twice, printed or accepted cross-site) and the figures beside them.
import { formatInt } from '../report.js';

const count = (findings, family, ...kinds) =>
  findings.filter((item) => item.family === family && (kinds.length === 0 || kinds.includes(item.kind))).length;

const ms = (value) => (value === undefined ? '-' : `${formatInt(value)} ms`);

/**
 * Rows for `round` (runRoundTwo's result, or undefined when skipped), built with the report's own
 * `hard` and `reported` row makers so they sit in the one bounds table.
 */
export function roundTwoRows(round, { hard, reported }) {
  if (!round) return [reported('round two (issue 18)', 'not run', '--round-two none')];
  const { families, findings } = round;
  const rows = [];
  const { proxy, data, redis, reload, chaos, admin } = families;
  const couldNotRun = findings.filter((item) => item.kind === 'could-not-run');
  rows.push(
    hard('round two: families that could not run', formatInt(couldNotRun.length), couldNotRun.length === 0, '0'),
  );
  if (proxy?.tried !== undefined) {
    const broken = count(findings, 'proxy');
    rows.push(
      hard(
        'proxy: smuggled / outside the base path / other findings',
        `${count(findings, 'proxy', 'smuggled')} / ${count(findings, 'proxy', 'escape', 'outside-base')} / ${broken - count(findings, 'proxy', 'smuggled', 'escape', 'outside-base')}`,
        broken === 0,
        '0 / 0 / 0',
      ),
      reported(
        'proxy: requests tried / slowest 502-504 answer',
        `${formatInt(proxy.tried)} / ${ms(proxy.maxFailureMs)}`,
        `--proxy-timeout ${proxy.timeoutMs} ms; ${proxy.aborted} clients went away mid-body, ${proxy.log.errorLines + proxy.log.stackLines} error or stack lines`,
      ),
    );
  }
  if (data?.acknowledged !== undefined) {
    rows.push(
      hard(
        '--data: lost / ids twice / litter / second kennel started',
        `${data.lost} / ${data.duplicateIds} / ${data.litter} / ${data.secondProcess?.code === 2 ? 'no' : 'yes'}`,
        count(findings, 'data') === 0,
        '0 / 0 / 0 / no',
      ),
      reported(
        '--data: kill -9 cycles / acknowledged creates / older than 1.5 s',
        `${data.cycles} / ${formatInt(data.acknowledged)} / ${formatInt(data.mustSurvive)}`,
        `${data.writers} writers`,
      ),
    );
  }
  if (redis?.skipped) rows.push(reported('Redis stalls', 'skipped', redis.skipped));
  else if (redis?.boundMs !== undefined) {
    rows.push(
      hard(
        'Redis: stall answers not a timely 503 / out of step / passwords printed',
        `${count(findings, 'redis', 'stall')} / ${redis.outOfStep} / ${redis.secretsPrinted}`,
        count(findings, 'redis') === 0,
        '0 / 0 / 0',
      ),
      reported(
        'Redis: slowest 503 (DEBUG SLEEP / SIGSTOP)',
        `${ms(redis.sleepMaxMs)} / ${ms(redis.frozenMaxMs)}`,
        `<= ${redis.boundMs} ms documented; ${redis.requestsDuringStalls} requests, ${redis.credentialStartups} start-ups with a password`,
      ),
    );
  }
  if (reload?.acknowledged !== undefined) {
    rows.push(
      hard(
        '--watch: acknowledged then lost / ids twice / 5xx',
        `${reload.lost} / ${reload.idsTwice} / ${reload.fiveXx}`,
        count(findings, 'reload') === 0,
        '0 / 0 / 0',
      ),
      reported(
        '--watch: edits / reloads seen / creates acknowledged',
        `${reload.edits} / ${reload.reloadsSeen} / ${formatInt(reload.acknowledged)}`,
      ),
    );
  }
  if (chaos?.hangUps !== undefined) {
    rows.push(
      hard(
        'chaos: delays refused after hang-ups / delays before auth',
        `${count(findings, 'chaos', 'hoarded')} / ${count(findings, 'chaos', 'before-auth')}`,
        count(findings, 'chaos') === 0,
        '0 / 0',
      ),
      reported(
        'chaos: hang-ups / one client refused past its share / slowest 401',
        `${chaos.hangUps} / ${chaos.refusedPastShare} of ${chaos.hogRequests} / ${ms(chaos.unauthenticatedMaxMs)}`,
      ),
    );
  }
  if (admin?.tried !== undefined)
    rows.push(
      hard(
        'admin: cross-site or foreign-Host requests accepted / other findings',
        `${admin.accepted} / ${count(findings, 'admin') - count(findings, 'admin', 'accepted')}`,
        count(findings, 'admin') === 0,
        `0 / 0 (of ${formatInt(admin.tried)})`,
      ),
    );
  return rows;
}

/** One line per second-round finding, for the report's observations. */
export function roundTwoLines(round) {
  return (round?.findings ?? [])
    .slice(0, 40)
    .map((item) => `  round two ${item.family} ${item.kind} ${item.variant}: ${item.detail}`);
}
