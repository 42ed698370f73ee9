import type { Project } from './model.js';

export interface ServeRequest {
  host: string;
  path: string;
  scheme: 'http' | 'https';
  /** The request method, upper case (default GET). */
  method?: string;
}

/** Response headers the platform itself writes (redirects, errors), by lower-case name. */
export type PlatformHeaders = Record<string, string>;

export type ServeResult =
  | { kind: 'page'; status: 200; project: string; host: string }
  | {
      kind: 'redirect';
      status: number;
      location: string;
      headers: PlatformHeaders;
      /**
       * The method a client that follows the redirect sends: the same for 307 and 308 (RFC 9110
       * §15.4.8, §15.4.9); GET after a 303, and after a 301 or 302 to a POST, as browsers and
       * `curl -L` do (§15.4.2, §15.4.3: "a user agent MAY change the request method from POST to GET").
       */
      followedWith: string;
    }
  | {
      kind: 'not-found';
      status: 404;
      reason: 'unknown_domain' | 'domain_not_verified' | 'plan_required' | 'no_successful_deploy';
      message: string;
      headers?: PlatformHeaders;
    }
  | {
      kind: 'method-not-allowed';
      status: 405;
      /** What a documentation page answers to: GET and HEAD (RFC 9110 §15.5.6: `Allow` is required). */
      headers: PlatformHeaders;
      message: string;
    }
  | {
      kind: 'tls-error';
      reason: 'no_certificate';
      /** Why the host has no certificate of its own: the 404 reason plain http gives, or `certificate_pending`. */
      cause: 'unknown_domain' | 'domain_not_verified' | 'certificate_pending';
      message: string;
    };

const HTML = 'text/html; charset=utf-8';
/** The methods a documentation page answers (HEAD as GET without the body, RFC 9110 §9.3.2). */
export const PAGE_METHODS = ['GET', 'HEAD'] as const;

/** The method a client following a redirect of `status` sends after asking with `method`. */
export function methodAfterRedirect(status: number, method: string): string {
  if (status === 307 || status === 308) return method;
  if (status === 303) return method === 'HEAD' ? 'HEAD' : 'GET';
  return method === 'POST' ? 'GET' : method;
}

function redirect(status: number, location: string, method: string): ServeResult {
  return {
    kind: 'redirect',
    status,
    location,
    headers: { location, 'content-type': HTML },
    followedWith: methodAfterRedirect(status, method),
  };
}

/** Why a host has no certificate of its own, as the TLS failure reports it. */
type TlsCause = Extract<ServeResult, { kind: 'tls-error' }>['cause'];

const CAUSE_TEXT: Record<TlsCause, string> = {
  unknown_domain: 'it is not attached to any project',
  domain_not_verified: 'it is attached but not verified',
  certificate_pending: 'its certificate is not issued yet',
};

function owner(projects: Iterable<Project>, host: string): Project | undefined {
  for (const project of projects) if (project.host === host || project.domains.has(host)) return project;
  return undefined;
}

/** The scheme a redirect to `host` can use: https once it has a certificate. */
function schemeFor(project: Project, host: string): 'http' | 'https' {
  return host === project.host || project.domains.get(host)?.certificate.state === 'issued' ? 'https' : 'http';
}

/** Whether the platform's default certificate (`*.<domain>` and `<domain>`) names `host`: one label at most. */
function namedByDefaultCertificate(host: string, platformDomain: string): boolean {
  if (host === platformDomain) return true;
  const suffix = `.${platformDomain}`;
  return host.endsWith(suffix) && !host.slice(0, -suffix.length).includes('.');
}

function tlsCause(project: Project | undefined, host: string): TlsCause | undefined {
  if (!project) return 'unknown_domain';
  const domain = project.domains.get(host);
  // The project's own host is under the platform's certificate; an issued one is presented even
  // when a later Re-verify failed (the platform then answers 404 over a good handshake).
  if (!domain || domain.certificate.state === 'issued') return undefined;
  return domain.dns.state === 'verified' ? 'certificate_pending' : 'domain_not_verified';
}

/**
 * What a client sees over https for a host without a certificate of its own: the platform presents
 * its default certificate (as the live site does), which does not name the host, so the handshake
 * fails before any HTTP is exchanged (curl exits 60). Undefined when the handshake succeeds.
 */
function tlsFailure(
  project: Project | undefined,
  host: string,
  platformDomain: string,
): Extract<ServeResult, { kind: 'tls-error' }> | undefined {
  if (namedByDefaultCertificate(host, platformDomain)) return undefined;
  const cause = tlsCause(project, host);
  if (cause === undefined) return undefined;
  return {
    kind: 'tls-error',
    reason: 'no_certificate',
    cause,
    message: `no certificate for ${host} (${CAUSE_TEXT[cause]}): the platform presents its default certificate for *.${platformDomain}, so the TLS handshake fails`,
  };
}

/**
 * What the platform answers for a request to `host`: over https, a TLS failure for a host without a
 * certificate (unknown, unverified, removed or still issuing); otherwise the site, a configured
 * redirect (301), an upgrade to HTTPS once a certificate exists (308), or the platform's 404 for
 * unknown, unverified and removed domains (removal stops serving at once).
 */
export function serve(projects: Iterable<Project>, request: ServeRequest, platformDomain: string): ServeResult {
  const host = request.host.toLowerCase().replace(/\.$/, '');
  const project = owner(projects, host);
  const failure = request.scheme === 'https' ? tlsFailure(project, host, platformDomain) : undefined;
  if (failure) return failure;
  const method = (request.method ?? 'GET').toUpperCase();
  if (!project)
    return {
      kind: 'not-found',
      status: 404,
      reason: 'unknown_domain',
      message: `${host} is not attached to any project`,
      headers: { 'content-type': HTML },
    };
  if (host === project.host) return page(project, host, method);
  const domain = project.domains.get(host)!;
  if (domain.dns.state !== 'verified')
    return {
      kind: 'not-found',
      status: 404,
      reason: 'domain_not_verified',
      message: `${host} is attached but not verified`,
      headers: { 'content-type': HTML },
    };
  const hasCertificate = domain.certificate.state === 'issued';
  const configured = project.redirects.find((entry) => entry.from === host);
  if (configured)
    return redirect(
      configured.status,
      `${schemeFor(project, configured.to)}://${configured.to}${request.path}`,
      method,
    );
  if (request.scheme === 'http' && hasCertificate) return redirect(308, `https://${host}${request.path}`, method);
  return page(project, host, method);
}

/** The site's page for GET and HEAD; any other method is 405 with `Allow` (the page is static). */
function page(project: Project, host: string, method: string): ServeResult {
  if ((PAGE_METHODS as readonly string[]).includes(method))
    return { kind: 'page', status: 200, project: project.id, host };
  return {
    kind: 'method-not-allowed',
    status: 405,
    headers: { allow: PAGE_METHODS.join(', '), 'content-type': HTML },
    message: `${method} is not allowed on a documentation page; use GET.`,
  };
}
