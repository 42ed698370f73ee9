import type { MockConfig } from './config.js';

/** The store a request acts on: its API key's own store, or the one shared store. */
export function tenantOf(apiKey: string | null, tenancy: MockConfig['tenancy']): string {
  return tenancy === 'shared' ? 'shared' : (apiKey ?? 'anonymous');
}

/** What a reset request means for the store: one tenant (by API key) or every tenant (optionally re-seeded). */
export function resetScope(
  request: { seed?: number; apiKey?: string },
  tenancy: MockConfig['tenancy'],
): { seed?: number; tenant?: string } {
  return request.apiKey !== undefined ? { tenant: tenantOf(request.apiKey, tenancy) } : { seed: request.seed };
}
