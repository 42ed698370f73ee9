import type { ListOrder } from '../store/tenant-collection.js';
import type { ChaosSettings } from './chaos/chaos-types.js';
import type { AfterSunset } from './time/after-sunset.js';

/** Everything `kennel serve` and `startMock` can be told; resolved once at the edge, then passed down. */
export interface MockConfig {
  /** Interface to bind; 127.0.0.1 by default (0.0.0.0 inside the container). */
  host: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Seed for the faker-generated pets: the same seed gives byte-identical data. */
  seed: number;
  /** How many pets each tenant's store starts with. */
  pets: number;
  /** Accepted API keys; when empty, only DEV_API_KEY is accepted. */
  apiKeys: string[];
  /** `per-key`: every API key sees its own store; `shared`: one store for everyone. */
  tenancy: 'per-key' | 'shared';
  /** Keep no state: answer every operation from the document's examples (or values generated from its schemas). */
  stateless: boolean;
  /** Generate every answer kennel keeps no state for from the schemas afresh (Prism's `--dynamic`); `Prefer: dynamic=false` opts out. */
  dynamic?: boolean;
  /** Read Prism's `__code`, `__example`, `__dynamic` query parameters as `Prefer` (off: they may clash with a document's own). */
  prismQuery?: boolean;
  /** Order of GET /pets: newest first (a pet you just created is on the first page) or oldest first. */
  listOrder: ListOrder;
  /** Where state lives: `memory` (this process) or a Redis URL shared by replicas (`redis://host:port`, `unix:///path.sock`). */
  store: string;
  /** File the in-memory store is saved to (after changes and on shutdown) and loaded from at start-up. */
  dataFile?: string | undefined;
  /** Most pets one tenant may hold (seeded ones included); creating past it answers 507. */
  maxItemsPerTenant: number;
  /** Most memory the pets created in one tenant's store may take (estimated); creating past it answers 507. */
  maxStoreBytes: number;
  /** Most memory the pets created in all stores together may take (estimated); creating past it answers 507. */
  maxTotalBytes: number;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** How many recent exchanges the admin journal keeps. */
  journalSize: number;
  /** Most memory the admin journal may take (estimated); the oldest exchanges go first. */
  journalBytes: number;
  /** When set, the admin API under /__kennel requires `Authorization: Bearer <adminToken>`. */
  adminToken: string | undefined;
  /**
   * Names a `Host` may carry on /__kennel besides localhost, IP addresses and `host`
   * (`--allowed-host`): `mock.internal`, `.corp.example` (and every name under it), `*` (any).
   */
  allowedHosts?: string[];
  /** Send CORS headers and answer preflight requests. */
  cors: boolean;
  /** pino level for the per-request log lines. */
  logLevel: LogLevel;
  /** The OpenAPI document to serve. */
  specPath: string;
  /** Serve the domain simulator's control API under /__kennel/world. */
  world: boolean;
  /** Proxy mode: forward every API request to this deployment and report how each exchange breaks the document. */
  proxy?: string;
  /** Proxy mode: longest silence from the upstream before kennel answers 504 (default 30 s). */
  proxyTimeoutMs?: number;
  /** Proxy mode: response bytes held and validated; a longer body streams through unvalidated (default 1 MB). */
  proxyMaxResponseBytes?: number;
  /** World file of the domain simulator (default: the bundled fixtures/world.json). */
  worldFile: string | undefined;
  /** Port of the live world's DNS server (UDP and TCP); off when undefined, 0 for any free port. */
  dnsPort: number | undefined;
  /** Port of a second DNS server answering as the platform resolver (what the verifier and CA see); off when undefined. */
  platformDnsPort?: number | undefined;
  /** Port of the documentation site over HTTPS (SNI certificates from the simulator); off when undefined. */
  sitePort: number | undefined;
  /** Port of the site's plain-HTTP listener (redirects to HTTPS); needs sitePort; off when undefined. */
  siteHttpPort?: number | undefined;
  /** Injected delays and faults, per operation or for all (docs/chaos.md); no rules: off. */
  chaos?: ChaosSettings;
  /** The mock's "now" in epoch milliseconds (it runs on from there); the real clock when undefined. */
  now?: number | undefined;
  /** What a deprecated operation answers once "now" passes its `x-sunset`: 410 `gone` (default) or `keep` answering. */
  afterSunset?: AfterSunset;
}

export const LIST_ORDERS: readonly ListOrder[] = ['newest-first', 'oldest-first'];

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The key accepted when no key is configured; printed at start-up and documented in the README. */
export const DEV_API_KEY = 'kennel-dev-key';

export const DEFAULT_CONFIG: Readonly<MockConfig> = {
  host: '127.0.0.1',
  port: 4010,
  seed: 1,
  pets: 30,
  apiKeys: [],
  tenancy: 'per-key',
  stateless: false,
  listOrder: 'newest-first',
  store: 'memory',
  maxItemsPerTenant: 10_000,
  maxStoreBytes: 32 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxBodyBytes: 64 * 1024,
  journalSize: 200,
  journalBytes: 16 * 1024 * 1024,
  adminToken: undefined,
  cors: true,
  logLevel: 'info',
  specPath: 'spec/petstore.yaml',
  world: true,
  worldFile: undefined,
  dnsPort: undefined,
  sitePort: undefined,
};

/** The keys the mock accepts under `config`. */
export function acceptedKeys(config: Pick<MockConfig, 'apiKeys'>): string[] {
  return config.apiKeys.length > 0 ? [...config.apiKeys] : [DEV_API_KEY];
}
