// Types of cli-bundle.mjs for the TypeScript that imports it (the bench).
export const BUNDLE_DIR: string;
export const BUNDLE_MAIN: string;
export const BUNDLE_INPUTS: string;
export const CODE_CACHE_SUFFIX: string;
export function cliBundle(root: string): { file: string } | { reason: string };
export function loadBundle(file: string, options?: { writeCodeCache?: boolean }): Record<string, unknown>;
