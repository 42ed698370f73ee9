import type { Logger } from 'pino';
import type { LoadedDocument } from '../openapi/load.js';
import type { MockConfig } from '../mock/config.js';

// The public face of an embedded mock. Kept apart from server.ts so that these types name nothing
// from devDependencies (no Koa types): a consumer's `tsc` compiles with kennel's dependencies alone.

/** Options of `startMock`: any option of `kennel serve` (docs/reference-cli.md), plus these. */
export interface MockServerOptions extends Partial<MockConfig> {
  /** Where request log lines go; default: silent for embedded use. */
  logger?: Logger;
  /** How long clients have to send request headers / whole requests (default 10 s / 30 s). */
  httpTimeouts?: { headersMs: number; requestMs: number };
}

/** A running mock (what `startMock` resolves to). */
export interface RunningMock {
  /** Base URL of the API, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** Scheme, host and port, e.g. `http://127.0.0.1:4010` (the admin API is at `${origin}/__kennel`). */
  origin: string;
  /** The API keys the mock accepts (the development key when none was configured). */
  apiKeys: string[];
  config: MockConfig;
  /** The OpenAPI document served (the newest one after a `--watch` reload). */
  document: LoadedDocument;
  /** @deprecated The same as `document` (its name before kennel 0.2). */
  spec: LoadedDocument;
  /** Forgets created pets and re-seeds: every tenant, or the one of `apiKey`; with `seed`, every tenant from that seed. */
  reset(options?: { seed?: number; apiKey?: string }): Promise<void>;
  close(): Promise<void>;
  /** Where the live world's DNS server and HTTPS site listen, when started (`httpPort`: the site's plain-HTTP listener). */
  dns: { host: string; port: number } | undefined;
  site: { host: string; port: number; httpPort?: number } | undefined;
}
