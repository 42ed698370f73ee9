import type { Random } from '../core/random.js';

/** Foreign keys (`categoryId`, `owner_id`) take values the deployment already uses: a server may check they exist. */
export function isReference(name: string): boolean {
  return /.Id$|_id$/.test(name);
}

/** A version-4 UUID drawn from `random` (a uuid that no deployment is likely to hold). */
export function randomUuid(random: Random): string {
  const hex = (count: number) => Array.from({ length: count }, () => random.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[random.int(0, 3)]}${hex(3)}-${hex(12)}`;
}
