// Types for scripts/reference-tables.js (read by test/docs/reference-tables.test.ts).
import type { Command } from 'commander';
export declare function renderCliReference(program: Command): string;
export declare function renderAdminReference(documents: { admin: unknown; world: unknown }): string;
