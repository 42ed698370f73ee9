#!/usr/bin/env node
// Entry point of the `kennel` command: the compiled CLI lives in dist/ (built by `npm ci` via `prepare`).
import { runFromProcess } from '../dist/cli/main.js';

await runFromProcess();
