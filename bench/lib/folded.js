// A V8 CPU profile as folded stacks ("root;caller;callee microseconds" per line), the text that
// flamegraph.pl, speedscope and inferno draw as a flame graph. Idle time is left out, and stacks
// below `minShare` of the busy time are dropped, so that a kept flame graph stays small. With
// `from` (microseconds of the monotonic clock, as process.hrtime gives it / 1000), samples taken
// before it are left out: start-up is not the request path.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `profile` (a .cpuprofile's JSON) as folded-stack text; frames name function, file and line under `root`. */
export function foldedStacks(profile, { root, minShare = 0.002, from = -Infinity } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfTime = new Map();
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index] ?? 0;
    if (time >= from) selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const stacks = new Map();
  let busy = 0;
  for (const [id, micros] of selfTime) {
    if (byId.get(id).callFrame.functionName === '(idle)') continue;
    busy += micros;
    const frames = [];
    for (let at = id; at !== undefined && byId.get(at).callFrame.functionName !== '(root)'; at = parentOf.get(at))
      frames.unshift(frameName(byId.get(at).callFrame, root));
    const key = frames.join(';');
    stacks.set(key, (stacks.get(key) ?? 0) + micros);
  }
  return [...stacks]
    .filter(([, micros]) => micros >= busy * minShare)
    .sort((a, b) => b[1] - a[1])
    .map(([stack, micros]) => `${stack} ${Math.round(micros)}`)
    .join('\n');
}

function frameName({ functionName, url, lineNumber }, root) {
  if (!url) return functionName || '(anonymous)';
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  const shown = root && file.startsWith(root) ? path.relative(root, file) : file;
  return `${functionName || '(anonymous)'} ${shown}:${lineNumber + 1}`;
}
