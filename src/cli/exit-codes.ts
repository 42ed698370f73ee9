/** Exit codes shared by every command: 0 fine, 1 findings, 2 could not run. */
export const EXIT = { ok: 0, findings: 1, toolError: 2 } as const;
