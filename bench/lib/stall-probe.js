// A loop of small HTTP GETs in a worker thread (its own event loop, so the suite's busy main
// thread does not inflate the figures): the longest wait for one answer is how long the server
// stalled. Segments (`mark(label)`) keep the figures of each phase apart.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** Long enough to measure a stall of many seconds rather than cut it short. */
const REQUEST_TIMEOUT_MS = 30_000;

function summarise(samples, errors) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : undefined);
  return { count: samples.length, errors, maxMs: sorted.at(-1), p50Ms: at(0.5), p99Ms: at(0.99) };
}

async function probeLoop({ url, headers, pauseMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const segments = new Map();
  let current = { label: 'start', samples: [], errors: 0 };
  segments.set(current.label, current);
  let running = true;
  parentPort.on('message', (message) => {
    if (message.type === 'mark') {
      current = segments.get(message.label) ?? { label: message.label, samples: [], errors: 0 };
      segments.set(message.label, current);
    } else if (message.type === 'stop') running = false;
  });
  while (running) {
    const segment = current;
    const started = performance.now();
    const ok = await new Promise((resolve) => {
      const req = http.get(url, { agent, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
        res.on('error', () => resolve(false));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve(false));
    });
    segment.samples.push(performance.now() - started);
    if (!ok) segment.errors += 1;
    await sleep(pauseMs);
  }
  agent.destroy();
  const result = {};
  for (const [label, segment] of segments) result[label] = summarise(segment.samples, segment.errors);
  parentPort.postMessage({ type: 'result', result });
}

if (!isMainThread && workerData?.stallProbe) await probeLoop(workerData.stallProbe);

/**
 * Starts the probe against `url`; returns {mark(label), stop()} where stop() resolves
 * {label: {count, errors, maxMs, p50Ms, p99Ms}} for every segment.
 */
export function startStallProbe({ url, headers = {}, pauseMs = 2 }) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { stallProbe: { url, headers, pauseMs } } });
  const result = new Promise((resolve, reject) => {
    worker.on('message', (message) => message.type === 'result' && resolve(message.result));
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`stall probe exited with code ${code} before reporting`)));
  });
  return {
    mark: (label) => worker.postMessage({ type: 'mark', label }),
    stop: async () => {
      worker.postMessage({ type: 'stop' });
      const timer = setTimeout(() => worker.terminate(), REQUEST_TIMEOUT_MS + 2000);
      try {
        return await result;
      } finally {
        clearTimeout(timer);
        await worker.terminate();
      }
    },
  };
}
