// The DNS fuzzer: seeded hostile packets over UDP and TCP, response-shaped packets (QR=1) that must
// never be answered, packets that cost the most to decode sent one at a time (each one's HTTP
// stall measured by the stall probe), and a TCP client that pipelines queries and never reads.
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryOf } from './children.js';
import { DNS_FAMILIES, heavyPackets, query, responsePacket, TYPES } from './dns-packets.js';
import { Prng } from './prng.js';

/** USER_HZ: the unit of /proc/<pid>/stat times (100 on Linux). */
const CLOCK_TICKS = 100;

/** Length-prefixed TCP framing (RFC 1035 §4.2.2). */
function framed(packet) {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(Math.min(packet.length, 0xffff));
  return Buffer.concat([length, packet.subarray(0, 0xffff)]);
}

function pickFamily(rng, families) {
  const total = families.reduce((sum, family) => sum + family.weight, 0);
  let draw = rng.float() * total;
  return families.find((family) => (draw -= family.weight) < 0) ?? families.at(-1);
}

/** Opens a UDP socket bound to an ephemeral loopback port; counts what comes back. */
async function udpSocket(host) {
  const socket = dgram.createSocket('udp4');
  const state = { socket, received: 0, errors: 0 };
  socket.on('message', () => (state.received += 1));
  socket.on('error', () => (state.errors += 1));
  await new Promise((resolve) => socket.bind(0, host, resolve));
  return state;
}

function udpSend(state, packet, host, port) {
  return new Promise((resolve) => state.socket.send(packet, port, host, (error) => resolve(!error)));
}

/** One TCP connection: writes `packets`, half-closes, resolves {bytesIn, closedBy} by `timeoutMs` at the latest. */
function tcpSession(host, port, packets, timeoutMs) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let bytesIn = 0;
    let done = false;
    const finish = (closedBy) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytesIn, closedBy });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('data', (chunk) => (bytesIn += chunk.length));
    socket.on('error', () => finish('error'));
    socket.on('close', () => finish('server'));
    socket.on('connect', () => socket.end(Buffer.concat(packets.map(framed))));
  });
}

/** Asks `example.com SOA` over UDP (three tries) and TCP; resolves {udp, tcp} (true when answered). */
export async function dnsAlive(host, port, { timeoutMs = 1000 } = {}) {
  const udp = await (async () => {
    const state = await udpSocket(host);
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await udpSend(state, query({ id: 0x4b00 + attempt }), host, port);
        const deadline = performance.now() + timeoutMs;
        while (performance.now() < deadline && state.received === 0) await sleep(5);
        if (state.received > 0) return true;
      }
      return false;
    } finally {
      state.socket.close();
    }
  })();
  const tcp = await tcpSession(host, port, [query({ id: 0x4b10 })], timeoutMs * 2).then(
    (result) => result.bytesIn > 12,
  );
  return { udp, tcp };
}

/** Bulk fuzz: `udp` packets over UDP in small bursts, `tcp` packets over TCP in sessions of ten. */
async function bulk(rng, { host, port, udp, tcp, answerMs }) {
  const families = DNS_FAMILIES.filter((family) => family.family !== 'qr-set');
  const perFamily = {};
  const count = (family) => (perFamily[family] = (perFamily[family] ?? 0) + 1);
  const socket = await udpSocket(host);
  let sentUdp = 0;
  try {
    for (let index = 0; index < udp; index += 1) {
      const family = pickFamily(rng, families);
      if (await udpSend(socket, family.make(rng), host, port)) sentUdp += 1;
      count(family.family);
      if (index % 50 === 49) await sleep(1);
    }
    await sleep(100);
  } finally {
    socket.socket.close();
  }
  const sessions = [];
  for (let index = 0; index < tcp; index += 10)
    sessions.push(
      Array.from({ length: Math.min(10, tcp - index) }, () => {
        const family = pickFamily(rng, families);
        count(family.family);
        return family.make(rng);
      }),
    );
  const closedBy = {};
  for (let lane = 0; lane < sessions.length; lane += 4) {
    const results = await Promise.all(
      sessions.slice(lane, lane + 4).map((packets) => tcpSession(host, port, packets, answerMs)),
    );
    for (const result of results) closedBy[result.closedBy] = (closedBy[result.closedBy] ?? 0) + 1;
  }
  return { udp: sentUdp, tcp, udpAnswers: socket.received, perFamily, tcpSessions: closedBy };
}

/** QR=1 packets on their own UDP socket and TCP connection: any byte back is an answer to a response. */
async function responsesUnanswered(rng, { host, port, count, answerMs }) {
  const socket = await udpSocket(host);
  const udpCount = Math.ceil(count / 2);
  try {
    for (let index = 0; index < udpCount; index += 1) {
      await udpSend(socket, responsePacket(rng), host, port);
      if (index % 50 === 49) await sleep(1);
    }
    await sleep(300);
  } finally {
    socket.socket.close();
  }
  const packets = Array.from({ length: count - udpCount }, () => responsePacket(rng));
  const tcp = await tcpSession(host, port, packets, answerMs);
  return { sent: count, udpAnswers: socket.received, tcpBytesBack: tcp.bytesIn };
}

/** Sends each heavy packet alone and waits until DNS answers again; the probe segment per packet holds its stall. */
async function heavy(rng, { host, port, probe, maxSize, gapMs, stallTimeoutMs }) {
  const sent = [];
  const socket = await udpSocket(host);
  try {
    for (const [index, packet] of heavyPackets(rng, { maxSize }).entries()) {
      const label = `heavy ${index}`;
      probe.mark(label);
      await sleep(30);
      const started = performance.now();
      await udpSend(socket, packet.data, host, port);
      await sleep(gapMs);
      const alive = await dnsAlive(host, port, { timeoutMs: stallTimeoutMs / 3 });
      sent.push({ label, name: packet.name, bytes: packet.data.length, dnsBackMs: performance.now() - started, alive });
    }
    probe.mark('after heavy');
  } finally {
    socket.socket.close();
  }
  return sent;
}

/** CPU seconds `pid` has used (user + system), from /proc/<pid>/stat; undefined off Linux. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Pipelines up to `bytes` of queries on one TCP connection that never reads, for at most
 * `timeLimitMs`; the server's RSS shows whether it buffers the answers. A writer stuck while the
 * server's CPU idles means the server applied backpressure; stuck while it is busy, that it is
 * still working through the queries.
 */
async function neverReads({ host, port, pid, bytes, timeLimitMs, settleMs }) {
  const before = memoryOf(pid)?.rssMb;
  const socket = net.connect({ host, port });
  socket.on('error', () => undefined);
  await new Promise((resolve) => {
    socket.once('connect', resolve);
    socket.once('error', resolve);
    setTimeout(resolve, 2000);
  });
  socket.pause();
  const batch = Buffer.concat(
    Array.from({ length: 2000 }, (_, index) => framed(query({ id: index, type: pipelinedType(index) }))),
  );
  const deadline = performance.now() + timeLimitMs;
  let queued = 0;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak ?? 0, memoryOf(pid)?.rssMb ?? 0)), 100);
  try {
    while (queued < bytes && performance.now() < deadline && !socket.destroyed) {
      queued += batch.length;
      if (!socket.write(batch))
        await Promise.race([
          new Promise((resolve) => socket.once('drain', resolve)),
          sleep(deadline - performance.now()),
        ]);
    }
    const cpuBefore = cpuSeconds(pid);
    await sleep(settleMs);
    const cpuShare = cpuBefore === undefined ? undefined : (cpuSeconds(pid) - cpuBefore) / (settleMs / 1000);
    const held = memoryOf(pid)?.rssMb;
    const flushed = socket.bytesWritten;
    socket.destroy();
    await sleep(settleMs * 2);
    return {
      bytesWritten: flushed,
      queries: Math.round(flushed / (batch.length / 2000)),
      stuck: flushed < bytes,
      serverCpuWhileStuck: cpuShare,
      backpressure: flushed < bytes && cpuShare !== undefined && cpuShare < 0.2,
      rssBeforeMb: before,
      rssHeldMb: held,
      rssPeakMb: Math.max(peak ?? 0, held ?? 0),
      rssAfterCloseMb: memoryOf(pid)?.rssMb,
    };
  } finally {
    clearInterval(sampler);
    socket.destroy();
  }
}

/** Query types with answers of different sizes, in turn. */
function pipelinedType(index) {
  return [TYPES.SOA, TYPES.TXT, TYPES.CAA, TYPES.A][index % 4];
}

/**
 * The whole DNS phase. `probe` is the running stall probe; `pid` the server's. Resolves every
 * figure the report needs; never throws for what the server does (a dead server shows as not alive).
 */
export async function runDnsFuzz({ host, port, pid, seed, probe, plan, log }) {
  const rng = new Prng(seed);
  const figures = { plan, ms: {} };
  /** Runs one step, keeps its wall time and logs its line. */
  const step = async (name, run, line) => {
    const started = performance.now();
    probe.mark(`dns ${name}`);
    figures[name] = await run();
    figures.ms[name] = Math.round(performance.now() - started);
    log(`  ${line(figures[name])} (${(figures.ms[name] / 1000).toFixed(1)} s)`);
  };
  await step(
    'bulk',
    () => bulk(rng.fork('bulk'), { host, port, udp: plan.udp, tcp: plan.tcp, answerMs: plan.answerMs }),
    (result) => `bulk: ${result.udp} UDP + ${result.tcp} TCP packets`,
  );
  figures.aliveAfterBulk = await dnsAlive(host, port);
  await step(
    'qr',
    () => responsesUnanswered(rng.fork('qr'), { host, port, count: plan.qr, answerMs: plan.answerMs }),
    (result) => `QR=1: ${result.sent} packets, ${result.udpAnswers} UDP answers, ${result.tcpBytesBack} TCP bytes back`,
  );
  await step(
    'heavy',
    () =>
      heavy(rng.fork('heavy'), {
        host,
        port,
        probe,
        maxSize: plan.heavyMaxSize,
        gapMs: plan.gapMs,
        stallTimeoutMs: plan.stallTimeoutMs,
      }),
    (result) => `heavy: ${result.length} packets sent one at a time`,
  );
  await step(
    'neverRead',
    () =>
      neverReads({
        host,
        port,
        pid,
        bytes: plan.neverReadBytes,
        timeLimitMs: plan.neverReadMs,
        settleMs: plan.settleMs,
      }),
    (result) =>
      `never-reading TCP client: ${(result.bytesWritten / 2 ** 20).toFixed(1)} MB of queries, server RSS ${result.rssBeforeMb?.toFixed(0)} -> ${result.rssPeakMb?.toFixed(0)} MB`,
  );
  probe.mark('dns after');
  figures.aliveAtEnd = await dnsAlive(host, port, { timeoutMs: 2000 });
  figures.fuzzed = figures.bulk.udp + figures.bulk.tcp + figures.qr.sent + figures.heavy.length;
  return figures;
}
