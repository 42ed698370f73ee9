import type { LoadedDocument } from '../../openapi/load.js';
import type { ReferenceOptions } from '../../reference/render-reference.js';
import { pageCsp, pageHeaders, staticFiles } from '../../web/static-assets.js';
import { DEV_API_KEY, type MockConfig } from '../config.js';

/** Where `kennel serve` serves the API reference (outside any document's base path, beside the admin API). */
export const DOCS_PREFIX = '/__kennel/docs';

/** A page or asset of the reference, ready to write. */
export interface ReferenceAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The page links only its own origin's stylesheet and script, and its script may only call its
 * own origin: no inline script or style, no external fonts, no framing.
 */
const SECURITY_HEADERS = pageHeaders(pageCsp());

/** The page's static files (web/reference/), by the name they are served under. */
const ASSETS = new Set(['reference.css', 'try-it.js', 'favicon.svg']);

/** The reference of a served document: the page rendered on first use, the static assets read once. */
export interface ReferencePages {
  /** The page with `footer` as its last line, or an asset when `path` names one under DOCS_PREFIX. */
  answer(path: string, footer: string): Promise<ReferenceAnswer>;
  /** True when `path` is one of the page's assets. */
  isAsset(path: string): boolean;
}

/** The reference pages of `spec` as `kennel serve` (and its documentation site) serve them. */
export function referencePages(document: LoadedDocument, config: Pick<MockConfig, 'apiKeys'>): ReferencePages {
  let page: Promise<(footer: string) => string> | undefined;
  const asset = staticFiles('web/reference');
  const options: ReferenceOptions = {
    assetsPath: `${DOCS_PREFIX}/`,
    keyHint: config.apiKeys.length > 0 ? 'your API key' : `${DEV_API_KEY} (the mock's development key)`,
    // With only the development key (public, printed in the banner) the first click works;
    // a configured key is never written into the page.
    ...(config.apiKeys.length === 0 ? { keyValue: DEV_API_KEY } : {}),
  };
  const assetName = (path: string) => (path.startsWith(`${DOCS_PREFIX}/`) ? path.slice(DOCS_PREFIX.length + 1) : '');
  return {
    isAsset: (path) => ASSETS.has(assetName(path)),
    answer: async (path, footer) => {
      const name = assetName(path);
      if (ASSETS.has(name)) {
        const { body, type } = await asset(name);
        return { status: 200, headers: { ...SECURITY_HEADERS, 'content-type': type }, body: body.toString('utf8') };
      }
      // Imported on first use: the renderer costs nothing to users who never open the reference.
      page ??= import('../../reference/render-reference.js').then(({ renderReference }) =>
        renderReference(document, options),
      );
      const body = (await page)(footer);
      return { status: 200, headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' }, body };
    },
  };
}
