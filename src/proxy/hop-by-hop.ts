/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus the proxy
 * authentication pair, which is addressed to the proxy itself (RFC 9110 §11.7): a proxy must not
 * forward them. `Host` is written by the client for the upstream, not copied.
 */
const CONNECTION_HEADERS = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
]);

/** Header names the `Connection` header lists: hop-by-hop for this message too. */
function listedInConnection(connection: string | string[] | undefined): Set<string> {
  const values = Array.isArray(connection) ? connection : connection === undefined ? [] : [connection];
  return new Set(
    values.flatMap((value) => value.split(',').map((name) => name.trim().toLowerCase())).filter((name) => name !== ''),
  );
}

/** `headers` (lower-case names, as Node gives them) without hop-by-hop headers and without `skip`. */
export function endToEndHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  skip: readonly string[] = [],
): Record<string, string | string[]> {
  const listed = listedInConnection(headers.connection);
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || CONNECTION_HEADERS.has(name) || listed.has(name) || skip.includes(name)) continue;
    result[name] = value;
  }
  return result;
}

/**
 * The end-to-end headers of raw `name, value, …` pairs, grouped by name in the spelling and order
 * received (`Set-Cookie` twice stays twice): what a client of the upstream would have seen.
 */
export function rawEndToEndHeaders(raw: readonly string[]): Record<string, string | string[]> {
  const grouped = new Map<string, { name: string; values: string[] }>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!;
    const entry = grouped.get(name.toLowerCase()) ?? { name, values: [] };
    entry.values.push(raw[index + 1]!);
    grouped.set(name.toLowerCase(), entry);
  }
  const lowered: Record<string, string[]> = {};
  for (const [lower, entry] of grouped) lowered[lower] = entry.values;
  const kept = endToEndHeaders(lowered);
  const result: Record<string, string | string[]> = {};
  for (const lower of Object.keys(kept)) {
    const entry = grouped.get(lower)!;
    result[entry.name] = entry.values.length === 1 ? entry.values[0]! : entry.values;
  }
  return result;
}
