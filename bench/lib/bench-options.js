// The options of `npm run bench` (bench/run.js), read and checked; a mistake is a BenchError
// naming the option, followed by the usage.
import { parseArgs } from 'node:util';

const USAGE = `usage: npm run bench [-- options]
  --duration S      seconds per round (default 5)
  --rounds N        rounds per target and route; the median round is reported (default 3)
  --connections N   concurrent connections (default 50)
  --warmup S        unmeasured warm-up before each target's first round of a route (default 1, 0 for none)
  --cold-starts N   spawns per target for the cold-start median (default 5)
  --quick           smoke run: 1 round x 2 s
  --no-prism        leave Prism out (no install, no rows)
  --no-pin          leave the load's servers and generator on every core (pinned by default:
                    servers on core 0, the load generator on core 1, as issue 20 is judged)
  -h, --help        this text`;

/** A failure the bench reports in one line, without a stack trace. */
export class BenchError extends Error {}

function positive(name, raw, { integer = true, allowZero = false } = {}) {
  const value = Number(raw);
  const ok =
    Number.isFinite(value) && (integer ? Number.isInteger(value) : true) && (allowZero ? value >= 0 : value > 0);
  if (!ok)
    throw new BenchError(
      `--${name} must be a ${allowZero ? 'non-negative' : 'positive'} ${integer ? 'integer' : 'number'}, not "${raw}"\n${USAGE}`,
    );
  return value;
}

/** The options given, with their defaults. */
export function options() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        duration: { type: 'string' },
        rounds: { type: 'string' },
        connections: { type: 'string' },
        warmup: { type: 'string' },
        'cold-starts': { type: 'string' },
        quick: { type: 'boolean', default: false },
        'no-prism': { type: 'boolean', default: false },
        'no-pin': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    throw new BenchError(`${error.message}\n${USAGE}`);
  }
  if (parsed.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    duration: parsed.duration !== undefined ? positive('duration', parsed.duration) : parsed.quick ? 2 : 5,
    rounds: parsed.rounds !== undefined ? positive('rounds', parsed.rounds) : parsed.quick ? 1 : 3,
    connections: parsed.connections !== undefined ? positive('connections', parsed.connections) : 50,
    warmup: parsed.warmup !== undefined ? positive('warmup', parsed.warmup, { allowZero: true }) : 1,
    coldStarts: parsed['cold-starts'] !== undefined ? positive('cold-starts', parsed['cold-starts']) : 5,
    quick: parsed.quick,
    prism: !parsed['no-prism'],
    pin: !parsed['no-pin'],
  };
}
