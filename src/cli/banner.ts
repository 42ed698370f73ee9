import { documentInfo } from '../openapi/document-info.js';
import path from 'node:path';
import { PETSTORE_SPEC } from '../assets.js';
import { printable } from '../core/printable.js';
import { hideUrlCredentials } from '../core/redact.js';
import { isUrl } from '../openapi/load.js';
import { DEV_API_KEY, type MockConfig } from '../mock/config.js';
import { DOCS_PREFIX } from '../mock/admin/reference-pages.js';
import type { RunningMock } from '../serve/server.js';
import type { Operation } from '../openapi/operations.js';
import { inferResources } from '../openapi/resource-model.js';
import { VIOLATIONS_HEADER } from '../mock/respond/violation.js';
import { redisLabel } from '../store/redis/redis-link.js';

/** True when some operation of the document asks for credentials. */
export function needsCredentials(operations: readonly Operation[]): boolean {
  return operations.some((operation) =>
    operation.security.requirements.some((requirement) => Object.keys(requirement).length > 0),
  );
}

/** `12 operations under /v1`: what the document offers. */
function operationsLine(running: RunningMock): string {
  const count = running.spec.operations.length;
  return `${count} operation${count === 1 ? '' : 's'} under ${running.spec.basePath || '/'}`;
}

function keysLine(config: MockConfig, secured: boolean): string {
  if (!secured) return 'none needed: the document declares no security';
  return config.apiKeys.length > 0
    ? `${config.apiKeys.length} configured (--api-key / KENNEL_API_KEYS)`
    : `${DEV_API_KEY}  (development key: no --api-key given)`;
}

/** `30 /pets, 2 /orders`: the items each stateful collection starts with; undefined when none. */
function seededLine(running: RunningMock): string | undefined {
  if (running.config.stateless) return undefined;
  const counts: string[] = [];
  for (const resource of inferResources(running.spec).resources) {
    if (!resource.stateful) continue;
    const seeded = running.mock.store.seeded(resource.path).length;
    if (seeded > 0) counts.push(`${seeded} ${resource.path}`);
  }
  return counts.length > 0 ? counts.join(', ') : undefined;
}

/** A request worth trying: the first GET without path parameters, with the credentials it needs. */
function tryLine(running: RunningMock, config: MockConfig): string | undefined {
  const operation =
    running.spec.operations.find((candidate) => candidate.method === 'get' && !candidate.path.includes('{')) ??
    running.spec.operations.find((candidate) => candidate.method === 'get');
  if (!operation) return undefined;
  const key = config.apiKeys.length > 0 ? '<your key>' : DEV_API_KEY;
  const first = operation.security.requirements[0] ?? {};
  const scheme = operation.security.schemes[Object.keys(first)[0] ?? ''];
  let credentials = '';
  let query = '';
  if (scheme?.type === 'apiKey' && scheme.name) {
    if (scheme.in === 'query') query = `?${encodeURIComponent(scheme.name)}=${encodeURIComponent(key)}`;
    else if (scheme.in === 'cookie') credentials = `-b '${scheme.name}=${key}' `;
    else credentials = `-H '${scheme.name}: ${key}' `;
  } else if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') credentials = `-u '${key}:' `;
  else if (scheme) credentials = `-H 'Authorization: Bearer ${key}' `;
  const limit = operation.parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'limit');
  const extra = limit ? `${query ? '&' : '?'}limit=2` : '';
  return `curl ${credentials}${running.url}${operation.path}${query}${extra}`;
}

/**
 * The banner's lines, each ending in a line break: the document's title, version, server URL and
 * paths are anyone's text, so their control characters (escape sequences, line breaks) are shown
 * as `\\uXXXX` instead of reaching the terminal.
 */
function terminalText(lines: readonly string[]): string {
  return lines.map((line) => `${printable(line)}\n`).join('');
}

/** What `kennel serve` prints once listening: the document actually served, its keys, data and a first request. */
export function serveBanner(config: MockConfig, running: RunningMock): string {
  const { title, version } = documentInfo(running.spec.document);
  const spec =
    config.specPath === PETSTORE_SPEC
      ? 'bundled spec/petstore.yaml'
      : isUrl(config.specPath)
        ? hideUrlCredentials(config.specPath)
        : path.relative(process.cwd(), config.specPath) || config.specPath;
  const stores = config.tenancy === 'shared' ? 'one shared store' : 'one store per API key';
  const seeded = seededLine(running);
  const data = config.stateless
    ? "stateless: answers from the document's examples"
    : seeded
      ? `seeded ${seeded}; seed ${config.seed}, ${stores}`
      : undefined;
  const tryIt = tryLine(running, config);
  if (running.proxy) return proxyBanner(running, spec);
  return terminalText([
    `kennel: serving ${title} ${version} from ${spec}`,
    `  API      ${running.url}  (${operationsLine(running)})`,
    `  admin    ${running.origin}/__kennel  (health, reset, journal, chaos, now)${config.adminToken ? ' — admin token required' : ''}`,
    `  docs     ${running.origin}${DOCS_PREFIX}  (API reference with try-it panels)`,
    `  API key  ${keysLine(config, needsCredentials(running.spec.operations))}`,
    ...(data ? [`  data     ${data}`] : []),
    ...(config.store !== 'memory'
      ? [`  store    ${redisLabel(config.store)}  (shared by every replica using it)`]
      : []),
    ...(config.dataFile !== undefined
      ? [
          `  store    in memory, saved to ${config.dataFile}  (a second after each change and on exit; loaded at start-up)`,
        ]
      : []),
    ...(tryIt ? [`  try      ${tryIt}`] : []),
  ]);
}

/** Proxy mode's banner: what is forwarded where, and where violations show. */
function proxyBanner(running: RunningMock, spec: string): string {
  const { title, version } = documentInfo(running.spec.document);
  return terminalText([
    `kennel: proxying to ${running.proxy!.label}, checking exchanges against ${title} ${version} from ${spec}`,
    `  API      ${running.url}  (${operationsLine(running)}; every request outside /__kennel is forwarded)`,
    `  admin    ${running.origin}/__kennel  (health, journal with each exchange's violations)`,
    `  report   violations in the ${VIOLATIONS_HEADER} response header, the journal, the log; a summary at exit`,
    `  docs     ${running.origin}${DOCS_PREFIX}  (API reference; its try-it panels go through the proxy)`,
  ]);
}

/**
 * The banner lines of the domain simulator's listeners; none when it is off, and none for a
 * document of the user's own unless they asked for the world (a world file, DNS or site ports):
 * it is still served under /__kennel/world, but it is the Pet Store's documentation platform.
 */
export function worldBannerLines(running: RunningMock): string[] {
  if (!running.world) return [];
  const asked =
    running.config.specPath === PETSTORE_SPEC ||
    running.config.worldFile !== undefined ||
    running.dns !== undefined ||
    running.site !== undefined ||
    running.world.platformDns() !== undefined;
  if (!asked) return [];
  const lines = [
    `  domains  ${running.origin}/__kennel/dashboard  (Domains settings and QA bench, in a browser)`,
    `  world    ${running.origin}/__kennel/world  (domain simulator control API: spec/domains.yaml)`,
  ];
  if (running.dns)
    lines.push(
      `  dns      ${running.dns.host} port ${running.dns.port} (UDP and TCP)  try: dig @${running.dns.host} -p ${running.dns.port} example.com SOA`,
    );
  const platformDns = running.world.platformDns();
  if (platformDns)
    lines.push(
      `  dns      ${platformDns.host} port ${platformDns.port} (UDP and TCP)  as the platform resolver: what Verify sees`,
    );
  if (running.site)
    lines.push(
      `  site     https://${running.site.host}:${running.site.port}  (trust ${running.origin}/__kennel/world/ca/root.pem)`,
    );
  if (running.site?.httpPort !== undefined)
    lines.push(
      `  site     http://${running.site.host}:${running.site.httpPort}  (redirects to https keep these ports)`,
    );
  return lines;
}
