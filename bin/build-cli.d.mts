// Types of build-cli.mjs for the TypeScript that imports it (the tests and the bench).
import type { Metafile } from 'esbuild';

export function buildCli(root?: string, outdir?: string): Promise<Metafile>;
