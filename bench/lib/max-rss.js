// Preloaded with `node --import ./bench/lib/max-rss.js …`: when the process exits, one line on
// stderr gives its peak resident set size (getrusage's ru_maxrss), so a parent can read the peak
// of a short-lived child without sampling it.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `kennel-max-rss-kb=${process.resourceUsage().maxRSS}\n`);
});
