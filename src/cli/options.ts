import { InvalidArgumentError } from 'commander';

/** A commander parser for an integer flag within [min, max]. */
export function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    const number = Number(value);
    if (number < min || number > max) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    return number;
  };
}

/** A commander parser for a host to bind: an empty one would make Node bind every interface. */
export function hostName(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must name an interface, such as 127.0.0.1 or 0.0.0.0');
  return value.trim();
}

/** What `--allowed-host` takes: a host name, `.name` for it and every name under it, or `*`. */
const ALLOWED_HOST = /^(\*|\.?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?)$/i;

/** Checks one `--allowed-host` value (or one of `KENNEL_ALLOWED_HOSTS`); the message says what is wrong. */
export function allowedHostProblem(value: string): string | undefined {
  if (ALLOWED_HOST.test(value)) return undefined;
  return `${JSON.stringify(value.slice(0, 80))} is not a host name: give a name (mock.internal), .name for it and the names under it, or * for any`;
}

/** Collects `--allowed-host` values, each checked. */
export function allowedHost(value: string, previous: string[] = []): string[] {
  const problem = allowedHostProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return [...previous, value];
}

/** A commander parser that accepts one of `choices`. */
export function oneOf<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(choices as readonly string[]).includes(value))
      throw new InvalidArgumentError(`must be one of: ${choices.join(', ')}`);
    return value as T;
  };
}

/** Collects a repeatable flag into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

const UNITS: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

function describeSize(bytes: number): string {
  if (bytes % UNITS.g! === 0) return `${bytes / UNITS.g!}gb`;
  if (bytes % UNITS.m! === 0) return `${bytes / UNITS.m!}mb`;
  return bytes % UNITS.k! === 0 ? `${bytes / UNITS.k!}kb` : `${bytes} bytes`;
}

/** A commander parser for byte sizes (`65536`, `64kb`, `1mb`, `2gb`) within [min, max]. */
export function byteSizeIn(min: number, max: number): (value: string) => number {
  const range = `between ${describeSize(min)} and ${describeSize(max)}`;
  return (value) => {
    const match = /^(\d+)\s*(b|kb|kib|mb|mib|gb|gib)?$/i.exec(value.trim());
    if (!match) throw new InvalidArgumentError(`must be a size such as 65536, 64kb or 1mb, ${range}`);
    const bytes = Number(match[1]) * UNITS[(match[2] ?? 'b')[0]!.toLowerCase()]!;
    if (bytes < min || bytes > max) throw new InvalidArgumentError(`must be ${range}`);
    return bytes;
  };
}

/** Byte sizes of a request body: `65536`, `64kb`, `1mb`, up to 64mb. */
export const byteSize = byteSizeIn(1, 64 * 1024 * 1024);

/** Byte sizes of memory bounds: from 64kb to 64gb. */
export const memorySize = byteSizeIn(64 * 1024, 64 * 1024 ** 3);
