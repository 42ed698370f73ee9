import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { packageFile, readJsonFile, PETSTORE_SPEC } from '../assets.js';
import { ToolError, whyNotBound } from '../core/tool-error.js';
import { loadDocument, type LoadedDocument } from '../openapi/load.js';
import { fixtureProblem, type PetFixtures } from '../store/fixtures.js';
import type { Category, SeedProfile } from '../store/pet.js';
import { seedPets } from '../store/seed.js';
import { createMockApp, type MockApp } from '../mock/app.js';
import { acceptedKeys, DEFAULT_CONFIG, type MockConfig } from '../mock/config.js';
import { answerClientError, answerConnect } from '../mock/respond/problems.js';
import type { MockServerOptions, RunningMock as PublicRunningMock } from './running-mock.js';
import { DataFile } from './data-file.js';
import { openStore } from './store-choice.js';
import { resetScope } from '../mock/tenancy.js';
import { Reloadable, type Reloaded } from './reloadable.js';
import { worldApi, type WorldApi } from './world-api.js';
import type { SiteContent } from '../domains/live/site-server.js';
import { docsRoutes, referenceSite } from './docs-routes.js';
import { referencePages } from '../mock/admin/reference-pages.js';
import type { KennelProxy } from '../proxy/proxy-handler.js';
import { mockRedactor } from '../mock/admin/redaction.js';
import { dashboardPage } from '../domains/live/dashboard-page.js';
import { http } from '../mock/commonjs.js';

/** Time a client has to send its request headers, and its whole request, before kennel answers 408. */
const DEFAULT_HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000 };

export type { MockServerOptions };

/** A running mock as kennel itself sees it: the public face plus the app and the live world. */
export interface RunningMock extends PublicRunningMock {
  /** The underlying app (store, journal), for tests and embedding. */
  mock: MockApp;
  /** The domain simulator behind /__kennel/world (started on first use, or at once with DNS/site ports). */
  world: WorldApi | undefined;
  /** Proxy mode (`--proxy`): the proxy, with the counts its exit summary prints. */
  proxy: KennelProxy | undefined;
  /** Loads `config.specPath` again and swaps it in (`--watch`); on a ToolError the old document stays. */
  reload(): Promise<Reloaded>;
}

async function loadFixtures(): Promise<PetFixtures> {
  const categoriesFile = packageFile('fixtures/categories.json');
  const categories = await readJsonFile<Category[]>(categoriesFile);
  const profile = await readJsonFile<SeedProfile>(packageFile('fixtures/pets.json'));
  const fixtures = { categories, profile };
  const problem = fixtureProblem(fixtures);
  if (problem) throw new ToolError(problem, packageFile('fixtures'));
  return fixtures;
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN')
        reject(new ToolError(`host ${host} is not found (${error.code}); choose another with --host`));
      else reject(new ToolError(`port ${port} on ${host} ${whyNotBound(error)}; choose another with --port`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Starts the mock on a real HTTP listener; for embedding: `const mock = await startMock(); … await mock.close()`. */
export async function startMock(options: MockServerOptions = {}): Promise<RunningMock> {
  const { logger: givenLogger, httpTimeouts = DEFAULT_HTTP_TIMEOUTS, ...overrides } = options;
  const config: MockConfig = { ...DEFAULT_CONFIG, port: 0, specPath: PETSTORE_SPEC, ...stripUndefined(overrides) };
  const logger = givenLogger ?? pino({ level: 'silent' });
  const [document, fixtures] = await Promise.all([loadDocument(config.specPath), loadFixtures()]);
  const opened = await openStore(config.store, logger);
  const proxy = config.proxy ? await startProxy(config, document, logger) : undefined;
  let site: SiteContent | undefined;
  const build = (document: LoadedDocument): MockApp => {
    const pages = referencePages(document, config);
    site = referenceSite(pages, document, (request, response) => void served.handle(request, response));
    return createMockApp({
      document: document,
      config,
      logger,
      seeders: {
        pets: (seed) =>
          seedPets({ seed, count: config.pets, categories: fixtures.categories, profile: fixtures.profile }).map(
            (pet) => ({ ...pet }),
          ),
      },
      extraApis: [
        { router: docsRoutes(pages, document) },
        ...(world ? [{ router: world.router }, { router: dashboardPage() }] : []),
      ],
      proxy: proxy?.middleware,
      makeStore: opened?.makeStore,
    });
  };
  // The documentation site follows --watch reloads: it reads the newest document's pages each time.
  const currentSite: SiteContent = {
    isApi: (pathname) => site!.isApi(pathname),
    api: (request, response) => void served.handle(request, response),
    page: (pathname, footer) => site!.page(pathname, footer),
  };
  const world = config.world
    ? worldApi(
        config,
        () => Date.now(),
        () => currentSite,
      )
    : undefined;
  // In proxy mode a reload also changes what the exchanges are judged against.
  const rebuild = (document: LoadedDocument): MockApp => {
    proxy?.useDocument(document, mockRedactor(document, acceptedKeys(config), config.adminToken));
    return build(document);
  };
  const served: Reloadable = new Reloadable(document, build(document), rebuild);
  const server = createHttpServer(served.handle, httpTimeouts);
  let address: AddressInfo;
  let data: DataFile | undefined;
  try {
    // Listeners need the world now; a world file is checked now, so a bad one stops start-up (exit 2).
    const eager =
      config.dnsPort !== undefined ||
      config.platformDnsPort !== undefined ||
      config.sitePort !== undefined ||
      config.worldFile !== undefined;
    await opened?.prepare();
    if (config.dataFile !== undefined) data = await DataFile.open(config.dataFile, served.mock.store, logger);
    if (world && eager) await world.start();
    address = await listen(server, config.host, config.port);
  } catch (error) {
    // Whatever failed, nothing may stay open: an open DNS socket alone keeps the process alive.
    await Promise.all([world?.close(), opened?.close()]);
    proxy?.close();
    throw error;
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  return {
    url: `${origin}${document.basePath}`,
    origin,
    apiKeys: acceptedKeys(config),
    config: { ...config, port: address.port },
    get document() {
      return served.document;
    },
    get spec() {
      return served.document;
    },
    get mock() {
      return served.mock;
    },
    reset: async (request = {}) => served.mock.store.reset(resetScope(request, config.tenancy)),
    reload: () => served.reload(config.specPath),
    close: async () => {
      await Promise.all([closeServer(server), world?.close()]);
      proxy?.close();
      await data?.close();
      await served.mock.store.close();
    },
    world,
    proxy,
    dns: world?.dns(),
    site: world?.site(),
  };
}

/** Proxy mode, loaded only when asked for: it brings the contract checker's response checks. */
async function startProxy(config: MockConfig, document: LoadedDocument, logger: Logger): Promise<KennelProxy> {
  const { createProxy, PROXY_DEFAULTS } = await import('../proxy/proxy-handler.js');
  const { parseUpstream } = await import('../proxy/upstream.js');
  return createProxy({
    ...PROXY_DEFAULTS,
    document: document,
    upstream: parseUpstream(config.proxy!),
    maxRequestBytes: config.maxBodyBytes,
    timeoutMs: config.proxyTimeoutMs ?? PROXY_DEFAULTS.timeoutMs,
    maxResponseBytes: config.proxyMaxResponseBytes ?? PROXY_DEFAULTS.maxResponseBytes,
    logger,
    redactor: mockRedactor(document, acceptedKeys(config), config.adminToken),
  });
}

/**
 * The HTTP listener with bounds a hostile client cannot stretch (slow headers or bodies are cut
 * off), and with every request Node would answer itself (missing Host, unknown Expect) handed to
 * the app, so that its answer is an `Error` body too.
 */
function createHttpServer(
  handle: ReturnType<MockApp['app']['callback']>,
  timeouts: { headersMs: number; requestMs: number },
): Server {
  // Koa's handler settles its own errors (its onerror answers them): nothing awaits what it returns.
  const listener = (request: IncomingMessage, response: ServerResponse): void => void handle(request, response);
  const server = http.createServer(
    {
      requireHostHeader: false,
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    },
    listener,
  );
  server.keepAliveTimeout = 5_000;
  server.on('checkExpectation', listener);
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  return server;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
