import type { OpenApiDocument } from './openapi-types.js';

/** The first server URL with its variables at their defaults (`https://petstore.example.com/v1`). */
export function firstServerUrl(document: OpenApiDocument): string | undefined {
  const server = document.servers?.[0];
  if (!server) return undefined;
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => server.variables?.[name]?.default ?? whole);
}

/** The path prefix the API is served under (`/v1`), '' for none; it never ends with a slash. */
export function basePathOf(document: OpenApiDocument): string {
  const url = firstServerUrl(document);
  if (!url) return '';
  let pathname: string;
  try {
    pathname = new URL(url, 'http://placeholder.invalid').pathname;
  } catch {
    return '';
  }
  return decodeURI(pathname).replace(/\/+$/, '');
}
