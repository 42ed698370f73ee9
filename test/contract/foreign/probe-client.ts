// A small hand-written HTTP client for the fault probes: each probe is the careful check a person
// would write for one fault, proving the fault is observable over HTTP and absent from the correct
// deployments.

export interface ProbeResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when it is not JSON). */
  body: any;
  /** The media type without parameters, lower case. */
  mediaType: string;
  /** The URL that was requested, to resolve relative links against. */
  url: string;
}

export interface ProbeRequest {
  query?: Record<string, string | number | boolean>;
  /** A JSON value, or raw text when `rawBody` is set. */
  body?: unknown;
  rawBody?: string;
  /** The credential header: the valid one by default, none with null. */
  authorization?: string | null;
  /** Further request headers (If-Match, ...). */
  headers?: Record<string, string>;
  /** The Content-Type of the body (application/json by default). */
  contentType?: string;
}

/** A violation found by a probe, or undefined when the deployment behaved as its document says. */
export type Verdict = string | undefined;
export type Probe = (client: ProbeClient) => Promise<Verdict>;

export class ProbeClient {
  readonly baseUrl: string;
  readonly authorization: string;
  /** The name of the credential header (`authorization` unless the API takes a key elsewhere). */
  readonly authHeader: string;

  constructor(baseUrl: string, authorization: string, authHeader = 'authorization') {
    this.baseUrl = baseUrl;
    this.authorization = authorization;
    this.authHeader = authHeader.toLowerCase();
  }

  /** Sends `method path` (relative to the base URL, or an absolute URL or path from a link). */
  async send(method: string, path: string, request: ProbeRequest = {}): Promise<ProbeResponse> {
    const url = new URL(this.resolve(path));
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.append(name, String(value));
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json, image/png',
      ...request.headers,
    };
    const authorization = request.authorization === undefined ? this.authorization : request.authorization;
    if (authorization !== null) headers[this.authHeader] = authorization;
    let body: string | undefined;
    if (request.rawBody !== undefined || request.body !== undefined) {
      headers['content-type'] = request.contentType ?? 'application/json';
      body = request.rawBody ?? JSON.stringify(request.body);
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return { status: response.status, headers: response.headers, text, body: parsed, mediaType, url: url.href };
  }

  get(path: string, request?: ProbeRequest): Promise<ProbeResponse> {
    return this.send('GET', path, request);
  }

  post(path: string, body: unknown, request: ProbeRequest = {}): Promise<ProbeResponse> {
    return this.send('POST', path, { ...request, body });
  }

  /** A path under the base URL, an absolute path (`/v2/...`) or an absolute URL. */
  private resolve(path: string): string {
    if (/^https?:/.test(path)) return path;
    const base = new URL(this.baseUrl);
    if (path.startsWith('/') && path.startsWith(`${base.pathname}/`)) return `${base.origin}${path}`;
    return `${this.baseUrl}${path}`;
  }
}

/** `undefined` when `condition` holds, else the violation. */
export const expectThat = (condition: boolean, violation: string): Verdict => (condition ? undefined : violation);

/** The status `response` should have had, as a verdict. */
export function expectStatus(response: ProbeResponse, wanted: number | readonly number[], what: string): Verdict {
  const statuses = typeof wanted === 'number' ? [wanted] : wanted;
  return expectThat(
    statuses.includes(response.status),
    `${what}: ${response.status} (expected ${statuses.join(' or ')})`,
  );
}

/** The first violation of several checks made in order. */
export function firstViolation(...verdicts: Verdict[]): Verdict {
  return verdicts.find((verdict) => verdict !== undefined);
}

/** A random uuid nothing has. */
export const unknownUuid = (): string => crypto.randomUUID();
