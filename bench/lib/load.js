// One autocannon run from this process, summarised to what the report needs.
import autocannon from 'autocannon';

let current;

/** Stops the run in progress, if any (Ctrl-C). */
export function stopLoad() {
  current?.stop?.();
}

/**
 * Loads `url` for `duration` seconds over `connections` keep-alive connections; resolves
 * {reqPerSec, p50Ms, p99Ms, requests, non2xx, errors, timeouts, statusCodes}.
 */
export async function runLoad({ url, method = 'GET', headers = {}, body, connections, duration }) {
  const tracker = autocannon({ url, method, headers, body, connections, duration, timeout: 10 });
  current = tracker;
  try {
    const result = await tracker;
    const statusCodes = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]),
    );
    return {
      reqPerSec: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      requests: result.requests.total,
      durationS: result.duration,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes,
    };
  } finally {
    current = undefined;
  }
}
