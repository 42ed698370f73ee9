import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { ToolError, whyNotBound } from '../../core/tool-error.js';
import { MINTED_KEPT, type LiveWorld } from './live-world.js';

export interface SiteServerHandle {
  host: string;
  /** The HTTPS listener's port. */
  port: number;
  /** The plain-HTTP listener's port, when one was asked for. */
  httpPort?: number;
  close(): Promise<void>;
}

/** A page of the site, ready to write. */
export interface SitePage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What the site serves on a host the platform serves (the platform host, verified custom domains).
 * Given by whoever starts the site (kennel serve gives the API reference and its mock), so that
 * this adapter knows nothing of the mock.
 */
export interface SiteContent {
  /** Whether `pathname` belongs to the documented API: such requests go to `api` unchanged. */
  isApi(pathname: string): boolean;
  /** The API's own request handler, answering in process (try-it calls stay same-origin). */
  api(request: IncomingMessage, response: ServerResponse): void;
  /** The page (or asset) at `pathname`; `footer` says which host and project serve it. */
  page(pathname: string, footer: string): Promise<SitePage>;
}

/** The site without content: one placeholder page at every path. */
export const PLACEHOLDER_CONTENT: SiteContent = {
  isApi: () => false,
  api: (_request, response) => void response.writeHead(404).end(),
  page: async (_pathname, footer) => ({
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: page('Pet Store API documentation', footer),
  }),
};

/** The listeners' ports, which redirect targets carry when they are not 443 and 80. */
interface SitePorts {
  https: number;
  http?: number;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML, in element content and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

function page(title: string, text: string): string {
  const [heading, paragraph] = [escapeHtml(title), escapeHtml(text)];
  return `<!doctype html><html><head><meta charset="utf-8"><title>${heading}</title></head><body><h1>${heading}</h1><p>${paragraph}</p></body></html>\n`;
}

/** A DNS host name, with an optional port (an IP literal is not a site's name). */
const HOST = /^((?!-)[a-z0-9-]{1,63}(?<!-)\.)*(?!-)[a-z0-9-]{1,63}(?<!-)\.?(:\d{1,5})?$/i;

/** The host name of a `Host` header, or undefined when it is not a valid one. */
export function siteHost(header: string | undefined): string | undefined {
  if (header === undefined || header.length > 260 || !HOST.test(header)) return undefined;
  const name = header.replace(/:\d+$/, '');
  return name.replace(/\.$/, '').length <= 253 ? name : undefined;
}

/** Path and query of the request target, percent-encoded as a URL would have them (safe in a Location header). */
function targetPath(url: string | undefined): string {
  try {
    const parsed = new URL(url ?? '/', 'https://site.invalid');
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return '/';
  }
}

/**
 * A redirect target as this server can follow it: the scheme's listener port is written into the
 * URL unless it is the scheme's default (443, 80), so `curl -L` reaches the same listeners.
 */
export function withPorts(location: string, ports: SitePorts): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return location;
  }
  const port = url.protocol === 'https:' ? ports.https : url.protocol === 'http:' ? ports.http : undefined;
  if (port === undefined) return location;
  url.port = String(port); // the URL leaves the scheme's default port out
  return url.href;
}

/** The served page (GET or HEAD, the simulator has seen to that), or the API's own paths to its handler. */
function servePage(content: SiteContent, request: IncomingMessage, response: ServerResponse, footer: string): void {
  const pathname = targetPath(request.url).replace(/\?.*$/, '');
  if (content.isApi(pathname)) return content.api(request, response);
  content.page(pathname, footer).then(
    (served) => {
      response.writeHead(served.status, served.headers);
      response.end(request.method === 'HEAD' ? undefined : served.body);
    },
    () => {
      response
        .writeHead(500, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('Server error', 'The page could not be rendered.'));
    },
  );
}

/** A platform answer with the simulator's status and headers (so scenarios and the site agree); HEAD gets no body. */
function platformAnswer(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
): void {
  response.writeHead(status, headers).end(request.method === 'HEAD' ? undefined : body);
}

function answer(
  live: LiveWorld,
  content: SiteContent,
  request: IncomingMessage,
  response: ServerResponse,
  scheme: 'http' | 'https',
  ports: SitePorts,
): void {
  const host = siteHost(request.headers.host);
  if (host === undefined) {
    response
      .writeHead(400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(page('Bad request', 'The Host header must name a site, such as docs.example.com.'));
    return;
  }
  const path = targetPath(request.url);
  const served = live.simulator.serve({ host, path, scheme, method: request.method });
  const footer = (name: string, project: string) => `Served for ${name} by project ${project}.`;
  if (served.kind === 'redirect') {
    const location = withPorts(served.location, ports);
    platformAnswer(request, response, served.status, { ...served.headers, location }, page('Moved', location));
  } else if (served.kind === 'page') {
    servePage(content, request, response, footer(served.host, served.project));
  } else if (served.kind === 'method-not-allowed') {
    // The documented API under the site takes its own methods; the simulator knows pages only.
    if (content.isApi(path.replace(/\?.*$/, ''))) return content.api(request, response);
    platformAnswer(request, response, 405, served.headers, page('Method not allowed', served.message));
  } else if (served.kind === 'tls-error') {
    // Reached only over HTTPS with the platform's default certificate (a client that ignored the mismatch).
    const headers = { 'content-type': 'text/html; charset=utf-8' };
    platformAnswer(request, response, 421, headers, page('Misdirected request', served.message));
  } else {
    const headers = served.headers ?? { 'content-type': 'text/html; charset=utf-8' };
    platformAnswer(request, response, 404, headers, page('Not found', served.message));
  }
}

function listen(server: HttpServer | Server, port: number, host: string, flag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ToolError(`site port ${port} on ${host} ${whyNotBound(error)}; choose another with ${flag}`)),
    );
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Remembers every socket a listener accepts, so closing can end them all: a half-open one (the
 * client's FIN came mid-handshake) is no HTTP connection yet, and `closeAllConnections` misses it.
 */
function trackSockets(server: HttpServer | Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

function closing(server: HttpServer | Server, sockets: ReadonlySet<Socket>): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeAllConnections();
    for (const socket of sockets) socket.destroy();
  });
}

/**
 * The documentation site over real HTTPS: SNI picks the certificate the simulator issued for the
 * requested name (minted by the live world's CA); a name without one (or no SNI) gets the
 * platform's default certificate, as real platforms present theirs, so clients see a name
 * mismatch. With `httpPort`, a plain-HTTP listener too: it serves what the platform serves over
 * http (a 308 to https once a certificate exists, configured redirects), and every redirect
 * target carries these listeners' ports. What a served host shows is `content` (default: a placeholder).
 */
export async function startSiteServer(
  live: LiveWorld,
  options: { host: string; port: number; httpPort?: number; content?: SiteContent },
): Promise<SiteServerHandle> {
  const content = options.content ?? PLACEHOLDER_CONTENT;
  const fallback = await live.platformCertificate();
  const fallbackContext = createSecureContext({ key: fallback.privateKeyPem, cert: fallback.chainPem });
  // The latest context per name, at most as many as the live world keeps minted certificates.
  const contexts = new Map<string, { serialNumber: string; context: SecureContext }>();
  const ports: SitePorts = { https: options.port };
  const server: Server = createServer(
    {
      // A client may send its request and close its side at once (`Connection: close`, then FIN,
      // as `printf … | openssl s_client` does): the page is rendered asynchronously, so the
      // socket must stay writable after the client's FIN, here and in the HTTP layer below.
      allowHalfOpen: true,
      key: fallback.privateKeyPem,
      cert: fallback.chainPem,
      SNICallback: (servername, done) => {
        live
          .certificateFor(servername.toLowerCase(), Date.now())
          .then((minted) => {
            if (!minted) return done(null, fallbackContext);
            const name = servername.toLowerCase();
            const kept = contexts.get(name);
            if (kept?.serialNumber === minted.serialNumber) return done(null, kept.context);
            const context = createSecureContext({ key: minted.privateKeyPem, cert: minted.chainPem });
            contexts.delete(name);
            contexts.set(name, { serialNumber: minted.serialNumber, context });
            if (contexts.size > MINTED_KEPT) contexts.delete(contexts.keys().next().value!);
            done(null, context);
          })
          .catch((error: Error) => done(error));
      },
    },
    (request, response) => answer(live, content, request, response, 'https', ports),
  );
  server.on('tlsClientError', () => undefined);

  const plain =
    options.httpPort === undefined
      ? undefined
      : createHttpServer((request, response) => answer(live, content, request, response, 'http', ports));
  // Node's own switch for the HTTP layer (node:_http_server), not in its typings.
  for (const listener of [server, plain])
    if (listener) (listener as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  const httpsSockets = trackSockets(server);
  const httpSockets = plain ? trackSockets(plain) : new Set<Socket>();
  ports.https = await listen(server, options.port, options.host, '--site-port');
  try {
    if (plain) ports.http = await listen(plain, options.httpPort!, options.host, '--site-http-port');
  } catch (error) {
    await closing(server, httpsSockets);
    throw error;
  }
  return {
    host: options.host,
    port: ports.https,
    ...(ports.http === undefined ? {} : { httpPort: ports.http }),
    close: async () => {
      await Promise.all([closing(server, httpsSockets), plain ? closing(plain, httpSockets) : undefined]);
    },
  };
}
