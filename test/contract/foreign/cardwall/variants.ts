// The correct Cardwall deployments: every one follows the document; they differ where it is silent.

export interface CardwallVariant {
  /** Salt of the deterministic ids: two deployments never share an id. */
  idSalt: string;
  /** How date-times are written: `Z` in whole seconds, or a +01:00 offset with milliseconds. */
  dateTimes: 'utc' | 'offset';
  /** The entity tags: a version counter, or a hash of the representation. */
  etags: 'version' | 'hash';
  /** Link header targets: absolute URLs with first/last, or path-absolute references with next/prev only. */
  links: 'absolute' | 'path-only';
  /** What a cursor encodes: the offset of the next item, or the id of the last item answered. */
  cursor: 'offset' | 'after-id';
  /** Requests per window announced in X-RateLimit-Limit. */
  rateLimit: number;
  /** Undocumented headers sent on every answer. */
  extraHeaders: Record<string, string>;
  /** The `author` of new comments (the key owner's name). */
  author: string;
  /** How error messages are worded. */
  messages: 'plain' | 'terse';
}

export const CARDWALL_VARIANTS: Readonly<Record<string, CardwallVariant>> = {
  reference: {
    idSalt: 'cardwall',
    dateTimes: 'utc',
    etags: 'version',
    links: 'absolute',
    cursor: 'offset',
    rateLimit: 5000,
    extraHeaders: {},
    author: 'Kennel Harness',
    messages: 'plain',
  },
  variant: {
    idSalt: 'cardwall variant',
    dateTimes: 'offset',
    etags: 'hash',
    links: 'path-only',
    cursor: 'after-id',
    rateLimit: 120000,
    extraHeaders: { 'x-request-id': 'req-0', 'x-powered-by': 'cardwall', 'cache-control': 'private, no-cache' },
    author: 'harness',
    messages: 'terse',
  },
};
