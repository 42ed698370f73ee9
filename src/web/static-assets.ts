import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { packageFile } from '../assets.js';

/** Content types of the files kennel's pages are made of, by extension. */
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** The content type of `file`, by its extension (kennel ships only the kinds listed above). */
export function contentType(file: string): string {
  const type = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)];
  if (type === undefined) throw new Error(`no content type for ${file}`);
  return type;
}

/**
 * Only the page's own files: no inline script or style, no other origin, no framing, so that a
 * slip in how a page builds its DOM does not become a script. `images` widens img-src (`data:`).
 */
export function pageCsp(images: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    ["img-src 'self'", ...images].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers every page and asset is served with: `csp`, no sniffing, no referrer, revalidated on each load. */
export function pageHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
}

/** A shipped file as served: its bytes, content type and a strong ETag of its contents. */
export interface StaticAsset {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * The files of the package folder `folder` (web/dashboard, web/reference), each read on its first
 * request and kept; a read that fails is forgotten, so the next request tries again.
 */
export function staticFiles(folder: string): (file: string) => Promise<StaticAsset> {
  const loaded = new Map<string, Promise<StaticAsset>>();
  return (file) => {
    let pending = loaded.get(file);
    if (!pending) {
      pending = loadAsset(`${folder}/${file}`, contentType(file));
      loaded.set(file, pending);
      pending.catch(() => loaded.delete(file));
    }
    return pending;
  };
}

async function loadAsset(relative: string, type: string): Promise<StaticAsset> {
  const body = await readFile(packageFile(relative));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, type, etag };
}
