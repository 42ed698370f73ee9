import type { Middleware } from 'koa';
import { ProblemError } from '../../core/problem.js';
import { pageCsp, pageHeaders, staticFiles, type StaticAsset } from '../../web/static-assets.js';

/** Where `kennel serve` serves the Domains dashboard and QA bench. */
export const DASHBOARD_PATH = '/__kennel/dashboard';

/** The page's files (web/dashboard/, shipped in the package and the image), by the path they answer. */
const ASSETS: Record<string, string> = {
  '': 'index.html',
  '/': 'index.html',
  ...Object.fromEntries(
    ['app.js', 'api.js', 'bench.js', 'dom.js', 'domains.js', 'app.css'].map((file) => [`/${file}`, file]),
  ),
};

/**
 * Only the page's own files and the control API (images may be data: URLs). The page builds its
 * DOM with textContent, and this keeps a slip from becoming a script.
 */
export const DASHBOARD_CSP = pageCsp(['data:']);

const HEADERS = pageHeaders(DASHBOARD_CSP);

/**
 * Serves the dashboard's files (read once, on the first request for them) with their content
 * types, a strict Content-Security-Policy, and an ETag to revalidate against (`no-cache`): a new
 * kennel version is picked up on the next load, an unchanged one costs a 304.
 */
export function dashboardPage(): Middleware {
  const asset = staticFiles('web/dashboard');
  return async (ctx, next) => {
    if (ctx.path !== DASHBOARD_PATH && !ctx.path.startsWith(`${DASHBOARD_PATH}/`)) {
      await next();
      return;
    }
    const rest = ctx.path.slice(DASHBOARD_PATH.length);
    if (!Object.hasOwn(ASSETS, rest))
      throw new ProblemError(404, 'not_found', `the dashboard has no ${ctx.path}; open ${DASHBOARD_PATH}`);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new ProblemError(405, 'method_not_allowed', `${ctx.method} ${ctx.path}: the dashboard only answers GET`, {
        Allow: 'GET, HEAD',
      });
    let found: StaticAsset;
    try {
      found = await asset(ASSETS[rest]!);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ProblemError(503, 'dashboard_unavailable', `the dashboard's files cannot be read (${reason})`);
    }
    ctx.set({ ...HEADERS, ETag: found.etag });
    if (ctx.get('if-none-match') === found.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = found.type;
    ctx.body = found.body;
  };
}
