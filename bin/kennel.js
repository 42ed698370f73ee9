#!/usr/bin/env -S node --max-semi-space-size=8
// Entry point of the `kennel` command: the compiled CLI lives in dist/ (built by `npm ci` via `prepare`).
// --max-semi-space-size=8 caps V8's young generation, which on a machine with a lot of RAM grows
// to 64 MB per semi-space under load and doubles kennel's RSS for no throughput gain (see
// docs/decisions/memory.md). package.json "start" and the Dockerfile ENTRYPOINT pass the same
// flag; the benches read it from this line (bench/lib/node-flags.js).
import module from 'node:module';
import { runtimeProblem } from '../dist/runtime-support.js';

const problem = runtimeProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(2);
}
// V8's code cache on disk (Node >= 22.1; in the OS temp folder): later starts skip compiling
// kennel's ~300 modules, about a third of a cold start. Off with NODE_DISABLE_COMPILE_CACHE=1.
module.enableCompileCache?.();
// Imported only once the runtime is known to be enough.
const { runFromProcess } = await import('../dist/cli/main.js');
await runFromProcess();
