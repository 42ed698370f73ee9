import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Middleware } from 'koa';
import { packageFile } from '../../assets.js';
import { ProblemError } from '../../core/problem.js';

/** Where `kennel serve` serves the Domains dashboard and QA bench. */
export const DASHBOARD_PATH = '/__kennel/dashboard';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

function pageFile(file: string): { file: string; type: string } {
  return { file, type: TYPES[file.slice(file.lastIndexOf('.') + 1)]! };
}

/** The page's files (web/dashboard/, shipped in the package and the image), by the path they answer. */
const ASSETS: Record<string, { file: string; type: string }> = {
  '': pageFile('index.html'),
  '/': pageFile('index.html'),
  ...Object.fromEntries(
    ['app.js', 'api.js', 'bench.js', 'dom.js', 'domains.js', 'app.css'].map((file) => [`/${file}`, pageFile(file)]),
  ),
};

/**
 * Only the page's own files and the control API: no inline script or style, no other origin, no
 * framing. The page builds its DOM with textContent, and this keeps a slip from becoming a script.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

async function loadAsset(file: string, type: string): Promise<Asset> {
  const body = await readFile(packageFile(`web/dashboard/${file}`));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, type, etag };
}

/**
 * Serves the dashboard's files (read once, on the first request for them) with their content
 * types, a strict Content-Security-Policy, and an ETag to revalidate against (`no-cache`): a new
 * kennel version is picked up on the next load, an unchanged one costs a 304.
 */
export function dashboardPage(): Middleware {
  const loaded = new Map<string, Promise<Asset>>();
  const asset = (path: string) => {
    const { file, type } = ASSETS[path]!;
    let pending = loaded.get(file);
    if (!pending) {
      pending = loadAsset(file, type);
      loaded.set(file, pending);
      pending.catch(() => loaded.delete(file));
    }
    return pending;
  };
  return async (ctx, next) => {
    if (ctx.path !== DASHBOARD_PATH && !ctx.path.startsWith(`${DASHBOARD_PATH}/`)) return next();
    const rest = ctx.path.slice(DASHBOARD_PATH.length);
    if (!Object.hasOwn(ASSETS, rest))
      throw new ProblemError(404, 'not_found', `the dashboard has no ${ctx.path}; open ${DASHBOARD_PATH}`);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new ProblemError(405, 'method_not_allowed', `${ctx.method} ${ctx.path}: the dashboard only answers GET`, {
        Allow: 'GET, HEAD',
      });
    let found: Asset;
    try {
      found = await asset(rest);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ProblemError(503, 'dashboard_unavailable', `the dashboard's files cannot be read (${reason})`);
    }
    ctx.set({
      'Content-Security-Policy': DASHBOARD_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
      ETag: found.etag,
    });
    if (ctx.get('if-none-match') === found.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = found.type;
    ctx.body = found.body;
  };
}
