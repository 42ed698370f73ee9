import type { Command } from 'commander';
import { DEFAULT_CONFIG, DEV_API_KEY, LIST_ORDERS, LOG_LEVELS, type LogLevel } from '../mock/config.js';
import type { ListOrder } from '../store/tenant-collection.js';
import { DOCUMENT_HELP } from './document-argument.js';
import { LOG_FORMATS, type LogFormat } from './log-format.js';
import { allowedHost, byteSize, collect, hostName, integerIn, memorySize, oneOf } from './options.js';

/** The flags of `kennel serve` as commander parses them (chaos and time ones are ChaosFlags). */
export interface ServeFlags {
  host?: string;
  port?: number;
  seed?: number;
  pets?: number;
  apiKey?: string[];
  spec?: string;
  logLevel?: LogLevel;
  logFormat?: LogFormat;
  sharedStore?: boolean;
  store?: string;
  data?: string;
  order?: ListOrder;
  stateless?: boolean;
  dynamic?: boolean;
  prismQuery?: boolean;
  maxPets?: number;
  maxBody?: number;
  maxStoreBytes?: number;
  maxTotalBytes?: number;
  journalSize?: number;
  journalBytes?: number;
  adminToken?: string;
  allowedHost?: string[];
  cors: boolean;
  world: boolean;
  worldFile?: string;
  dnsPort?: number;
  platformDnsPort?: number;
  sitePort?: number;
  siteHttpPort?: number;
  proxy?: string;
  proxyTimeout?: number;
  proxyMaxResponse?: number;
  watch?: boolean;
}

/** Declares the flags of `kennel serve` (all but chaos and time) on `command`, in the order help lists them. */
export function serveOptions(command: Command): Command {
  for (const declare of [documentOptions, storeOptions, limitOptions, accessOptions, worldOptions, proxyOptions])
    declare(command);
  return command;
}

/** What is served, where, and how it logs. */
function documentOptions(command: Command): Command {
  return command
    .description('serve a stateful mock of the Pet Store API (or of any OpenAPI document with --spec)')
    .argument('[document]', DOCUMENT_HELP)
    .option('--host <host>', `interface to bind (env KENNEL_HOST; default ${DEFAULT_CONFIG.host})`, hostName)
    .option(
      '-p, --port <port>',
      `TCP port, 0 for any free one (env KENNEL_PORT; default ${DEFAULT_CONFIG.port})`,
      integerIn(0, 65535),
    )
    .option('--seed <n>', `seed of the generated pets (default ${DEFAULT_CONFIG.seed})`, integerIn(0, 2 ** 31 - 1))
    .option('--pets <n>', `pets each store starts with (default ${DEFAULT_CONFIG.pets})`, integerIn(0, 100_000))
    .option(
      '--api-key <key>',
      `accepted API key, repeatable (env KENNEL_API_KEYS, comma-separated; default: the development key ${DEV_API_KEY})`,
      collect,
    )
    .option('--spec <document>', 'the document, as a flag: a file or an http(s) URL')
    .option('--watch', "reload the document when it or a file it $ref's changes, keeping the items that still fit")
    .option('--log-level <level>', `request log level (default ${DEFAULT_CONFIG.logLevel})`, oneOf(LOG_LEVELS))
    .option(
      '--log-format <format>',
      `request log as ${LOG_FORMATS.join(' or ')} (env KENNEL_LOG_FORMAT; default pretty on a terminal, else json)`,
      oneOf(LOG_FORMATS),
    );
}

/** Where state lives and how lists are ordered. */
function storeOptions(command: Command): Command {
  return command
    .option('--shared-store', 'one store for every API key instead of one per key')
    .option(
      '--store <url>',
      'where state lives: memory, or a Redis server shared by replicas: redis://host:port, unix:///path.sock (env KENNEL_STORE; default memory)',
    )
    .option(
      '--data <file>',
      'save the in-memory store to this JSON file (after changes and on exit) and load it at start',
    )
    .option(
      '--stateless',
      "keep no state: answer every operation from the document's examples (or values generated from its schemas)",
    )
    .option(
      '-d, --dynamic',
      'answer operations kennel keeps no state for with values generated afresh from their schemas (Prism -d); Prefer: dynamic=false asks for the static answer',
    )
    .option(
      '--prism-query',
      "also read Prism's __code, __example and __dynamic query parameters as Prefer code=, example=, dynamic= (a Prefer header wins)",
    )
    .option(
      '--order <order>',
      `order of GET /pets: ${LIST_ORDERS.join(' or ')} (default ${DEFAULT_CONFIG.listOrder})`,
      oneOf(LIST_ORDERS),
    );
}

/** Memory and size bounds of the stores, bodies and the admin journal. */
function limitOptions(command: Command): Command {
  return command
    .option(
      '--max-pets <n>',
      `pets one store may hold (default ${DEFAULT_CONFIG.maxPetsPerTenant})`,
      integerIn(1, 1_000_000),
    )
    .option(
      '--max-store-bytes <size>',
      `memory the pets created in one store may take (default ${mb(DEFAULT_CONFIG.maxStoreBytes)})`,
      memorySize,
    )
    .option(
      '--max-total-bytes <size>',
      `memory the pets created in all stores may take (default ${mb(DEFAULT_CONFIG.maxTotalBytes)})`,
      memorySize,
    )
    .option('--max-body <size>', `largest request body (default ${DEFAULT_CONFIG.maxBodyBytes / 1024}kb)`, byteSize)
    .option(
      '--journal-size <n>',
      `exchanges kept by the admin journal (default ${DEFAULT_CONFIG.journalSize})`,
      integerIn(0, 100_000),
    )
    .option(
      '--journal-bytes <size>',
      `memory the admin journal may take (default ${mb(DEFAULT_CONFIG.journalBytes)})`,
      memorySize,
    );
}

/** Who may use the admin API, and CORS. */
function accessOptions(command: Command): Command {
  return command
    .option(
      '--admin-token <token>',
      'protect the admin API under /__kennel with this bearer token (env KENNEL_ADMIN_TOKEN)',
    )
    .option(
      '--allowed-host <name>',
      'a Host name /__kennel answers besides localhost and IP addresses, repeatable: mock.internal, .corp.example (and names under it), * for any (env KENNEL_ALLOWED_HOSTS, comma-separated)',
      allowedHost,
    )
    .option('--no-cors', 'do not send CORS headers');
}

/** The domain simulator's control API and its DNS and site listeners. */
function worldOptions(command: Command): Command {
  return command
    .option(
      '--dns-port <port>',
      'serve the domain simulator over real DNS (UDP and TCP) on this port, 0 for any free one',
      integerIn(0, 65535),
    )
    .option(
      '--platform-dns-port <port>',
      "also serve DNS as the platform's resolver (what Verify sees, its own cache) on this port, 0 for any free one",
      integerIn(0, 65535),
    )
    .option(
      '--site-port <port>',
      "serve the documentation site over HTTPS with the simulator's certificates on this port",
      integerIn(0, 65535),
    )
    .option(
      '--site-http-port <port>',
      'also serve the site over plain HTTP on this port, 0 for any free one (redirects to HTTPS keep the ports; needs --site-port)',
      integerIn(0, 65535),
    )
    .option('--world-file <file>', 'world of the domain simulator (default: the bundled fixtures/world.json)')
    .option('--no-world', "do not serve the domain simulator's control API under /__kennel/world");
}

/** Proxy mode: forward to a deployment and judge its exchanges. */
function proxyOptions(command: Command): Command {
  return command
    .option(
      '--proxy <url>',
      'forward every API request to this deployment and report how each exchange breaks the document (docs/proxy.md)',
    )
    .option(
      '--proxy-timeout <ms>',
      'with --proxy: longest wait for the upstream (default 30000)',
      integerIn(1, 600_000),
    )
    .option(
      '--proxy-max-response <size>',
      'with --proxy: response bodies up to this size are validated, longer ones pass unvalidated (default 1mb)',
      memorySize,
    );
}

function mb(bytes: number): string {
  return `${bytes / (1024 * 1024)}mb`;
}
