import type { Project } from './model.js';

export interface ServeRequest {
  host: string;
  path: string;
  scheme: 'http' | 'https';
}

export type ServeResult =
  | { kind: 'page'; status: 200; project: string; host: string }
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'not-found';
      status: 404;
      reason: 'unknown_domain' | 'domain_not_verified' | 'plan_required' | 'no_successful_deploy';
      message: string;
    }
  | { kind: 'tls-error'; reason: 'no_certificate'; message: string };

function owner(projects: Iterable<Project>, host: string): Project | undefined {
  for (const project of projects) if (project.host === host || project.domains.has(host)) return project;
  return undefined;
}

/** The scheme a redirect to `host` can use: https once it has a certificate. */
function schemeFor(project: Project, host: string): 'http' | 'https' {
  return host === project.host || project.domains.get(host)?.certificate.state === 'issued' ? 'https' : 'http';
}

/**
 * What the platform answers for a request to `host`: the site, a configured redirect (301), an
 * upgrade to HTTPS once a certificate exists (308), or the platform's 404 for unknown, unverified
 * and removed domains (removal stops serving at once).
 */
export function serve(projects: Iterable<Project>, request: ServeRequest): ServeResult {
  const host = request.host.toLowerCase().replace(/\.$/, '');
  const project = owner(projects, host);
  if (!project)
    return {
      kind: 'not-found',
      status: 404,
      reason: 'unknown_domain',
      message: `${host} is not attached to any project`,
    };
  if (host === project.host) return { kind: 'page', status: 200, project: project.id, host };
  const domain = project.domains.get(host)!;
  if (domain.dns.state !== 'verified')
    return {
      kind: 'not-found',
      status: 404,
      reason: 'domain_not_verified',
      message: `${host} is attached but not verified`,
    };
  const hasCertificate = domain.certificate.state === 'issued';
  if (request.scheme === 'https' && !hasCertificate)
    return { kind: 'tls-error', reason: 'no_certificate', message: `no certificate for ${host} yet` };
  const redirect = project.redirects.find((entry) => entry.from === host);
  if (redirect)
    return {
      kind: 'redirect',
      status: redirect.status,
      location: `${schemeFor(project, redirect.to)}://${redirect.to}${request.path}`,
    };
  if (request.scheme === 'http' && hasCertificate)
    return { kind: 'redirect', status: 308, location: `https://${host}${request.path}` };
  return { kind: 'page', status: 200, project: project.id, host };
}
