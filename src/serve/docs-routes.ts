import type { Middleware } from 'koa';
import path from 'node:path';
import { ProblemError } from '../core/problem.js';
import { shorten } from '../core/text.js';
import type { SiteContent } from '../domains/live/site-server.js';
import type { LoadedDocument } from '../openapi/load.js';
import { ADMIN_PREFIX } from '../mock/admin/admin-routes.js';
import { DOCS_PREFIX, type ReferencePages } from '../mock/admin/reference-pages.js';
import { isUnder } from '../mock/routing/route-table.js';

/** `kennel serve`'s API reference under /__kennel/docs: the page and its two assets, GET and HEAD only. */
export function docsRoutes(pages: ReferencePages, document: LoadedDocument): Middleware {
  const footer = `Rendered by kennel from ${path.basename(document.file)}.`;
  return async (ctx, next) => {
    // The first character test keeps API requests (GET /v1/pets) at one comparison.
    if (ctx.path[1] !== '_' || !isUnder(ctx.path, DOCS_PREFIX)) {
      await next();
      return;
    }
    const page = ctx.path === DOCS_PREFIX || ctx.path === `${DOCS_PREFIX}/`;
    if (!page && !pages.isAsset(ctx.path))
      throw new ProblemError(404, 'not_found', `No page at ${shorten(ctx.path)} (the reference is at ${DOCS_PREFIX})`);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new ProblemError(405, 'method_not_allowed', `${ctx.method} is not allowed here; use GET`, {
        Allow: 'GET, HEAD',
      });
    const answer = await pages.answer(ctx.path, footer);
    ctx.status = answer.status;
    ctx.set(answer.headers);
    ctx.body = answer.body;
  };
}

/** Path templates as patterns: `/pets/{petId}` matches `/pets/7`. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]*\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`, 'i');
}

/**
 * What the documentation site serves on the platform host and verified custom domains: the same
 * reference, and the document's API paths answered in process by the mock's own request handler,
 * so that try-it calls from the HTTPS site stay same-origin (no CORS, no mixed content).
 */
export function referenceSite(
  pages: ReferencePages,
  document: LoadedDocument,
  handler: SiteContent['api'],
): SiteContent {
  const templates = document.operations.map((operation) => templatePattern(operation.path));
  return {
    // Never the admin API: a document without a base path may have templates (`/{id}`) matching it.
    isApi: (pathname) =>
      !isUnder(pathname, ADMIN_PREFIX) &&
      (document.basePath !== ''
        ? isUnder(pathname, document.basePath)
        : templates.some((pattern) => pattern.test(pathname))),
    api: handler,
    page: (pathname, footer) => pages.answer(pathname, footer),
  };
}
