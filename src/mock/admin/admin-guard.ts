import { isIP } from 'node:net';
import type { Context } from 'koa';
import { ProblemError } from '../../core/problem.js';
import { DASHBOARD_PATH } from '../../domains/live/dashboard-page.js';
import { shorten } from '../../core/text.js';
import { ADMIN_PREFIX } from './admin-routes.js';
import { DOCS_PREFIX } from './reference-pages.js';
import { isUnder } from '../routing/route-table.js';

/** What the admin guard lets through besides loopback names and IP addresses. */
export interface AdminGuardOptions {
  /**
   * Further names a `Host` may carry (`--allowed-host`): `mock.internal`, `.corp.example` (that name
   * and every name under it), or `*` (any name: the Host check is off).
   */
  allowedHosts: readonly string[];
  /** The interface kennel binds (`--host`): when it is a name, that name is served too. */
  boundHost: string;
}

/** Methods that only read: a page on another site may send them, but cannot read the answer without CORS. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** `Sec-Fetch-Site` values of a request the page of this very origin (or the user) made. */
const OWN_SITE = new Set(['same-origin', 'none']);
const ADMIN_HEALTH = `${ADMIN_PREFIX}/health`;

/** The pages under /__kennel (the API reference, the dashboard): they change nothing and answer 405 to writes. */
function isStaticPage(path: string): boolean {
  return isUnder(path, DOCS_PREFIX) || isUnder(path, DASHBOARD_PATH);
}

/** A `Host` value's name (lower-case, no port, no trailing dot) and port; IPv6 keeps its brackets off. */
function splitHost(value: string): { name: string; port: string | undefined } {
  const bracket = /^\[([^\]]*)\](?::(\d*))?$/.exec(value);
  if (bracket) return { name: bracket[1]!.toLowerCase(), port: bracket[2] || undefined };
  const colon = value.lastIndexOf(':');
  const [name, port] = colon === -1 ? [value, undefined] : [value.slice(0, colon), value.slice(colon + 1) || undefined];
  return { name: name.toLowerCase().replace(/\.$/, ''), port };
}

/** True when `name` is one kennel serves: an IP address, localhost or a name under it, the bound name, an allowed name. */
function served(name: string, options: AdminGuardOptions): boolean {
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === options.boundHost.toLowerCase()) return true;
  return options.allowedHosts.some((allowed) => {
    const entry = allowed.toLowerCase().replace(/\.$/, '');
    if (entry === '*') return true;
    if (entry.startsWith('.')) return name === entry.slice(1) || name.endsWith(entry);
    return name === entry;
  });
}

/**
 * DNS rebinding: a page on `attacker.example` whose name the attacker re-points at 127.0.0.1 reaches
 * kennel as the same origin, with `Host: attacker.example`. Health (for probes that use any name) and
 * the API reference pages (static, read-only) answer any Host; the rest of /__kennel does not.
 */
function checkHost(ctx: Context, options: AdminGuardOptions): void {
  if (ctx.path === ADMIN_HEALTH || isUnder(ctx.path, DOCS_PREFIX)) return;
  const host = ctx.get('host');
  if (host === '') return; // HTTP/1.0 without Host: not a browser.
  const { name } = splitHost(host);
  if (served(name, options)) return;
  throw new ProblemError(
    403,
    'host_not_allowed',
    `Host ${JSON.stringify(shorten(host))} is not an address this kennel serves: /__kennel answers localhost, IP addresses and the names of --allowed-host (a foreign name here is how DNS rebinding reaches a local server); start kennel with --allowed-host ${shorten(name)} if it is yours`,
  );
}

/** The origin of `origin` as host name and port, comparable with the request's `Host`. */
function sameOrigin(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // The scheme is not compared: a TLS proxy in front of kennel turns https into http.
  const own = splitHost(host);
  const port = url.port === '' ? undefined : url.port;
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase() === own.name && port === own.port;
}

/**
 * CSRF: any page may send a "simple" request (a form post, a `no-cors` fetch with a text body) to
 * 127.0.0.1 without asking. A state change is refused when the browser says it comes from another
 * site (`Sec-Fetch-Site`, `Origin`), and in the bodies only such a request can carry (forms and
 * text), whatever token it holds: a token in a page does not make the page the user's.
 */
function checkStateChange(ctx: Context): void {
  if (SAFE_METHODS.has(ctx.method) || isStaticPage(ctx.path)) return;
  const site = ctx.get('sec-fetch-site').toLowerCase();
  const origin = ctx.get('origin');
  const foreignSite = site !== '' && !OWN_SITE.has(site);
  const foreignOrigin = origin !== '' && !sameOrigin(origin, ctx.get('host'));
  if (foreignSite || foreignOrigin) {
    const said = foreignOrigin ? `Origin: ${shorten(origin)}` : `Sec-Fetch-Site: ${site}`;
    throw new ProblemError(
      403,
      'cross_site_refused',
      `${ctx.method} ${shorten(ctx.path)} from another site (${said}) is refused: no page but kennel's own may change its state (CSRF); send it from this origin, or from outside a browser`,
    );
  }
  const type = ctx.get('content-type').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' || type.startsWith('multipart/') || type.startsWith('text/'))
    throw new ProblemError(
      415,
      'unsupported_media_type',
      `The admin API takes JSON, not ${shorten(type)}: a form or text body is what a page on any site can send unasked (CSRF); send Content-Type: application/json (curl: -H 'Content-Type: application/json')`,
    );
}

/**
 * Guards /__kennel (the admin API, the world's control API, the dashboard) against the browser
 * attacks on a local server: DNS rebinding (a foreign Host) and CSRF (a state change from another
 * site, or in a form or text body). Called for requests under /__kennel only (app.ts tests the
 * prefix once for every stage); throws the refusal.
 */
export function adminGuard(options: AdminGuardOptions): (ctx: Context) => void {
  return (ctx) => {
    checkHost(ctx, options);
    checkStateChange(ctx);
  };
}
