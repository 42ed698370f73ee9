import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Debian's Chromium, installed by .ci/run (`apt-get install -y chromium`); never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

export interface BrowserOptions {
  /** Chromium `--host-resolver-rules`, e.g. `MAP docs.example.com 127.0.0.1`, to reach a simulated site by name. */
  hostResolverRules?: string;
  /** Further Chromium switches, e.g. `--ignore-certificate-errors-spki-list=<hash>` to trust a test CA. */
  args?: string[];
}

/**
 * Real headless Chromium. A missing browser fails the test with the command that installs it: a
 * skipped browser test would be a test that cannot fail.
 */
export async function launchChromium(options: BrowserOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run \`apt-get update && apt-get install -y chromium\` (.ci/run does)`);
  const args = ['--headless', '--no-sandbox', '--disable-gpu'];
  if (options.hostResolverRules) args.push(`--host-resolver-rules=${options.hostResolverRules}`);
  args.push(...(options.args ?? []));
  return chromium.launch({ executablePath: CHROMIUM, args });
}

let shared: Promise<Browser> | undefined;

/**
 * One Chromium per test worker, launched with no options, for files that only open contexts in
 * it: a worker runs file after file with this module kept (`isolate: false`), so the second file
 * skips a launch. Never close it: Playwright ends it when the worker exits, and a crash launches
 * a new one. Each test still gets a fresh context (`strictContext`), so nothing carries over.
 */
export function sharedChromium(): Promise<Browser> {
  shared ??= launchChromium().then(
    (browser) => {
      browser.once('disconnected', () => (shared = undefined));
      return browser;
    },
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

/** A fresh browser context that fails the test on any page error or failed console message it collects. */
export async function strictContext(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext(options);
  const errors: string[] = [];
  context.on('page', (page) => {
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
  });
  return { context, errors };
}
