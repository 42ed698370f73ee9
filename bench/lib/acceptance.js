// The acceptance of issue 20 ("Speed back ahead"), judged from one bench run: each route at least
// 0.9x the minimal Koa handler and 5x Prism, RSS after the list load at most 1.2x the Koa
// handler's, a cold start to the first answered request within 0.3 s, and a full `kennel check`
// of a generated 600-operation document within 30 s. Rows have the shape of run.js's targets.
import { formatFixed, formatInt } from './report.js';

export const ACCEPTANCE = {
  vsKoa: 0.9,
  vsPrism: 5,
  rssVsKoa: 1.2,
  coldStartS: 0.3,
  checkAtScaleS: 30,
};

const ROUTES = [
  { id: 'list', label: 'GET /v1/pets' },
  { id: 'get', label: 'GET /v1/pets/1' },
  { id: 'create', label: 'POST /v1/pets' },
];

function row(name, value, pass, detail, skip = false) {
  return { name, value, status: skip ? 'SKIP' : pass ? 'PASS' : 'FAIL', detail };
}

const flagNote = (...rows) => (rows.some((entry) => entry?.flagged) ? ' (a row has errors: see the table)' : '');

/** kennel/Koa and kennel/Prism for one route: a row that had errors cannot pass. */
function routeRows(route, byTarget, prismSkipped) {
  const kennel = byTarget?.kennel;
  const koa = byTarget?.baseline;
  const prism = byTarget?.prism;
  const vsKoa = kennel?.vsBaseline;
  const vsPrism = kennel?.vsPrism;
  return [
    row(
      `${route.label} kennel/Koa >= ${ACCEPTANCE.vsKoa}`,
      vsKoa,
      vsKoa >= ACCEPTANCE.vsKoa && !kennel?.flagged && !koa?.flagged,
      vsKoa === undefined
        ? 'not measured'
        : `${formatFixed(vsKoa)} (${formatInt(kennel.reqPerSec)} vs ${formatInt(koa?.reqPerSec)} req/s)${flagNote(kennel, koa)}`,
      vsKoa === undefined,
    ),
    row(
      `${route.label} kennel/Prism >= ${ACCEPTANCE.vsPrism}`,
      vsPrism,
      vsPrism >= ACCEPTANCE.vsPrism && !kennel?.flagged && !prism?.flagged,
      vsPrism === undefined
        ? `no Prism figures: ${prismSkipped ?? 'not measured'}`
        : `${formatFixed(vsPrism)} (${formatInt(kennel.reqPerSec)} vs ${formatInt(prism?.reqPerSec)} req/s)${flagNote(kennel, prism)}`,
      vsPrism === undefined,
    ),
  ];
}

function rssRow(memory) {
  const kennel = memory.kennel?.rssMb;
  const koa = memory.baseline?.rssMb;
  const share = kennel !== undefined && koa ? kennel / koa : undefined;
  return row(
    `RSS after the GET /v1/pets load kennel/Koa <= ${ACCEPTANCE.rssVsKoa}`,
    share,
    share <= ACCEPTANCE.rssVsKoa,
    share === undefined
      ? 'not measured'
      : `${formatFixed(share)} (${formatFixed(kennel, 1)} vs ${formatFixed(koa, 1)} MB)`,
    share === undefined,
  );
}

function coldRow(cold) {
  const seconds = cold.kennel?.medianMs !== undefined ? cold.kennel.medianMs / 1000 : undefined;
  return row(
    `kennel cold start direct <= ${ACCEPTANCE.coldStartS} s`,
    seconds,
    seconds <= ACCEPTANCE.coldStartS,
    seconds === undefined
      ? 'not measured'
      : `${formatFixed(seconds)} s to the first answered GET /v1/pets (median of ${cold.kennel.samplesMs.length} spawns of bin/kennel.js)`,
    seconds === undefined,
  );
}

function checkRow(scale) {
  const name = `kennel check of a generated 600-operation document against kennel serve <= ${ACCEPTANCE.checkAtScaleS} s`;
  if (scale.skip) return row(name, undefined, false, scale.skip, true);
  if (scale.error) return row(name, undefined, false, `failed: ${scale.error.split('\n')[0]}`);
  const { findings } = scale;
  const same =
    scale.sameAsLast === undefined
      ? 'no earlier run to compare'
      : scale.sameAsLast
        ? 'the same findings as the last recorded run'
        : 'FINDINGS DIFFER from the last recorded run';
  return row(
    name,
    scale.seconds,
    scale.seconds <= ACCEPTANCE.checkAtScaleS,
    `${formatFixed(scale.seconds, 1)} s wall, ${scale.operations} operations, ${formatInt(findings.requests)} requests; ${findings.errors} errors, ${findings.warnings} warnings, ${findings.failures} failures (findings ${findings.digest}: ${same})`,
  );
}

/** The acceptance rows from run.js's summary, cold starts, memory after the list load and check at scale. */
export function acceptanceChecks({ summary, cold, memory, prismSkipped, checkScale }) {
  return [
    ...ROUTES.flatMap((route) => routeRows(route, summary[route.id], prismSkipped)),
    rssRow(memory),
    coldRow(cold),
    checkRow(checkScale),
  ];
}

/** The report's section for the acceptance rows. */
export function acceptanceLines(acceptance) {
  return [
    'acceptance of issue 20 (measured on a quiet machine; see the warnings below):',
    ...acceptance.map((check) => `  ${check.status}  ${check.name}: ${check.detail}`),
  ];
}
