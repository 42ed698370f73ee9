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

/** Byte sizes: `65536`, `64kb`, `1mb`. */
export function byteSize(value: string): number {
  const match = /^(\d+)\s*(b|kb|kib|mb|mib)?$/i.exec(value.trim());
  if (!match) throw new InvalidArgumentError('must be a size such as 65536, 64kb or 1mb');
  const unit = (match[2] ?? 'b').toLowerCase();
  const factor = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 * 1024 : 1;
  const bytes = Number(match[1]) * factor;
  if (bytes < 1 || bytes > 64 * 1024 * 1024) throw new InvalidArgumentError('must be between 1 byte and 64mb');
  return bytes;
}
