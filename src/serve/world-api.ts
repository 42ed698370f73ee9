import type { Middleware } from 'koa';
import { packageFile } from '../assets.js';
import type { DnsServerHandle } from '../domains/live/dns-server.js';
import type { LiveWorld } from '../domains/live/live-world.js';
import type { SiteContent, SiteServerHandle } from '../domains/live/site-server.js';
import { ProblemError } from '../core/problem.js';
import { loadDocument } from '../openapi/load.js';
import { bearerKey } from '../mock/request/auth.js';
import type { MockConfig } from '../mock/config.js';
import { isUnder } from '../mock/routing/route-table.js';
import { specRouter } from '../mock/routing/spec-router.js';

/** Where the domain simulator's control API (spec/domains.yaml) is served. */
export const WORLD_PREFIX = '/__kennel/world';

export interface WorldApi {
  /** Serves the control API; the world starts on its first request unless already started. */
  router: Middleware;
  /** Starts the live world now, with the DNS and site listeners the config asks for. */
  start(): Promise<LiveWorld>;
  dns(): DnsServerHandle | undefined;
  /** The DNS server answering as the platform resolver (--platform-dns-port). */
  platformDns(): DnsServerHandle | undefined;
  site(): SiteServerHandle | undefined;
  close(): Promise<void>;
}

/** The listeners the config asks for beside the control API. */
interface WorldListeners {
  dns?: DnsServerHandle;
  platformDns?: DnsServerHandle;
  site?: SiteServerHandle;
}

/**
 * The live domain world of `kennel serve`, started lazily: its spec, CA and simulator cost start-up
 * time and memory that users of the pet mock alone never need (unless --dns-port/--site-port/--world-file).
 * A start that fails closes whatever it had opened and is forgotten, so the next attempt starts afresh.
 * `siteContent` gives what the site serves on its hosts (the API reference and the mock), read when it starts.
 */
export function worldApi(config: MockConfig, now: () => number, siteContent?: () => SiteContent): WorldApi {
  let starting: Promise<{ live: LiveWorld; router: Middleware }> | undefined;
  let listening: WorldListeners = {};
  let closed = false;

  const init = async () => {
    const { live, router } = await startWorld(config, now());
    listening = await startListeners(live, config, siteContent);
    return { live, router };
  };
  const ready = () => {
    // A request that raced the shutdown: answered 503 world_unavailable like any failed start.
    if (closed) return Promise.reject(new Error('the live world is closed'));
    starting ??= init().catch((error: unknown) => {
      starting = undefined;
      throw error;
    });
    return starting;
  };

  return {
    router: async (ctx, next) => {
      if (!isUnder(ctx.path, WORLD_PREFIX)) {
        await next();
        return;
      }
      let router: Middleware;
      try {
        ({ router } = await ready());
      } catch (error) {
        throw new ProblemError(
          503,
          'world_unavailable',
          `the domain simulator could not start: ${(error as Error).message}; the next request tries again`,
        );
      }
      await router(ctx, next);
    },
    start: async () => (await ready()).live,
    dns: () => listening.dns,
    platformDns: () => listening.platformDns,
    site: () => listening.site,
    close: async () => {
      closed = true;
      // A start under way may still open listeners: let it finish (or fail) first.
      await starting?.catch(() => undefined);
      const open = listening;
      listening = {};
      await closeListeners(open);
    },
  };
}

/** The live world and the router of its control API. */
async function startWorld(config: MockConfig, now: number): Promise<{ live: LiveWorld; router: Middleware }> {
  // Imported here, not at the top: X.509, DNS and the simulator cost ~0.15 s and ~18 MB at start-up.
  const [{ LiveWorld }, { controlResponder }, { loadWorld }] = await Promise.all([
    import('../domains/live/live-world.js'),
    import('../domains/live/control-api.js'),
    import('../domains/scenario/scenario-file.js'),
  ]);
  const [world, document] = await Promise.all([
    loadWorld(config.worldFile),
    loadDocument(packageFile('spec/domains.yaml')),
  ]);
  const live = await LiveWorld.start(world, { now });
  const tokens = config.adminToken ? new Set([config.adminToken]) : undefined;
  const router = specRouter({
    document,
    prefix: WORLD_PREFIX,
    maxBodyBytes: config.maxBodyBytes,
    authenticate: (_operation, ctx) => (tokens ? bearerKey(ctx.get('authorization'), tokens) : null),
    respond: controlResponder(live),
  });
  return { live, router };
}

/** Opens the DNS and site listeners the config asks for; when one fails, those already open are closed. */
async function startListeners(
  live: LiveWorld,
  config: MockConfig,
  siteContent: (() => SiteContent) | undefined,
): Promise<WorldListeners> {
  const [{ startDnsServer }, { startSiteServer }] = await Promise.all([
    import('../domains/live/dns-server.js'),
    import('../domains/live/site-server.js'),
  ]);
  const open: WorldListeners = {};
  try {
    if (config.dnsPort !== undefined)
      open.dns = await startDnsServer(live.lookup, { host: config.host, port: config.dnsPort });
    if (config.platformDnsPort !== undefined)
      open.platformDns = await startDnsServer(live.platformLookup, { host: config.host, port: config.platformDnsPort });
    if (config.sitePort !== undefined)
      open.site = await startSiteServer(live, {
        host: config.host,
        port: config.sitePort,
        httpPort: config.siteHttpPort,
        content: siteContent?.(),
      });
    // resolveConfig refuses this at start-up (a ToolError, exit 2); here it would be a kennel bug.
    else if (config.siteHttpPort !== undefined) throw new Error('--site-http-port without --site-port');
    return open;
  } catch (error) {
    await closeListeners(open);
    throw error;
  }
}

async function closeListeners(open: WorldListeners): Promise<void> {
  const servers = [open.dns, open.platformDns, open.site].filter((server) => server !== undefined);
  await Promise.all(servers.map((server) => server.close()));
}
