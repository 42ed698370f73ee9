import { createServer, type Server } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ToolError, whyNotBound } from '../../core/tool-error.js';
import { MINTED_KEPT, type LiveWorld } from './live-world.js';

export interface SiteServerHandle {
  host: string;
  port: number;
  close(): Promise<void>;
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

function answer(live: LiveWorld, request: IncomingMessage, response: ServerResponse): void {
  const host = siteHost(request.headers.host);
  if (host === undefined) {
    response
      .writeHead(400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(page('Bad request', 'The Host header must name a site, such as docs.example.com.'));
    return;
  }
  const served = live.simulator.serve({ host, path: targetPath(request.url), scheme: 'https' });
  if (served.kind === 'redirect') {
    response
      .writeHead(served.status, { location: served.location, 'content-type': 'text/html; charset=utf-8' })
      .end(page('Moved', served.location));
  } else if (served.kind === 'page') {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(page('Pet Store API documentation', `Served for ${served.host} by project ${served.project}.`));
  } else {
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(page('Not found', served.message));
  }
}

/**
 * The documentation site over real HTTPS: SNI picks the certificate the simulator issued for the
 * requested name (minted by the live world's CA); a name without one fails the handshake, as a
 * platform without a certificate would.
 */
export function startSiteServer(live: LiveWorld, options: { host: string; port: number }): Promise<SiteServerHandle> {
  // The latest context per name, at most as many as the live world keeps minted certificates.
  const contexts = new Map<string, { serialNumber: string; context: SecureContext }>();
  const server: Server = createServer(
    {
      SNICallback: (servername, done) => {
        live
          .certificateFor(servername.toLowerCase(), Date.now())
          .then((minted) => {
            if (!minted) return done(new Error(`no certificate for ${servername}`));
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
    (request, response) => answer(live, request, response),
  );
  server.on('tlsClientError', () => undefined);
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new ToolError(
          `site port ${options.port} on ${options.host} ${whyNotBound(error)}; choose another with --site-port`,
        ),
      ),
    );
    server.listen(options.port, options.host, () => {
      const address = server.address() as AddressInfo;
      resolve({
        host: options.host,
        port: address.port,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
