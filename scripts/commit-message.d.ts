// Types for scripts/commit-message.js (read by test/docs/commit-message.test.ts).
export declare const MAX_SUBJECT: number;
export declare function commitMessageProblems(message: string): string[];
