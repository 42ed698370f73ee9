// Types for what the architecture test reads from eslint.config.js (one list of pure folders).
export declare const IO_MODULES: readonly string[];
export declare const PURE: readonly string[];
export declare const PURE_EXCEPTIONS: readonly string[];
declare const config: unknown;
export default config;
