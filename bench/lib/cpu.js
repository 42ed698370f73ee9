// How much CPU other processes took while a round ran: on a 2-core machine anything else running
// (a build, a test suite) skews the figures, so the report shows it instead of hiding it.
import { readFileSync } from 'node:fs';

let cpuCount;

function machineTicks() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    const idle = fields[3] + (fields[4] ?? 0);
    return { total, busy: total - idle };
  } catch {
    return undefined;
  }
}

function processTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may contain spaces) start at field 3 (state).
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // utime, stime, cutime, cstime are fields 14-17, i.e. indexes 11-14 here.
    return fields[11] + fields[12] + fields[13] + fields[14];
  } catch {
    return 0;
  }
}

/**
 * Starts a measurement of the CPU taken by processes other than this one and `pids`; call the
 * returned function at the end to get the average number of cores they used meanwhile.
 */
export function watchForeignCpu(pids) {
  const machineBefore = machineTicks();
  const ownBefore = processTicks('self') + pids.reduce((sum, pid) => sum + processTicks(pid), 0);
  return () => {
    const machineAfter = machineTicks();
    if (!machineBefore || !machineAfter) return undefined;
    const own = processTicks('self') + pids.reduce((sum, pid) => sum + processTicks(pid), 0) - ownBefore;
    const total = machineAfter.total - machineBefore.total;
    const busy = machineAfter.busy - machineBefore.busy;
    if (total <= 0) return undefined;
    cpuCount ??= countCpus();
    return Math.max(0, ((busy - own) / total) * cpuCount);
  };
}

function countCpus() {
  try {
    return (
      readFileSync('/proc/stat', 'utf8')
        .split('\n')
        .filter((line) => /^cpu\d+ /.test(line)).length || 1
    );
  } catch {
    return 1;
  }
}

/** Cores busy with anything over `ms` milliseconds (before the run starts). */
export async function machineBusyCores(ms = 1000) {
  const before = machineTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineTicks();
  if (!before || !after || after.total <= before.total) return undefined;
  cpuCount ??= countCpus();
  return ((after.busy - before.busy) / (after.total - before.total)) * cpuCount;
}
