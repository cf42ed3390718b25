#!/usr/bin/env node
// The `clm` command: runs the prebuilt CLI (.build/cli, built by `npm ci`/`npm install` or `npm run build:cli`) when
// it is there and no source it was built from changed since; otherwise the TypeScript sources through tsx (slower to
// start: every file is transpiled), saying so in one line.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliBundle, loadBundle } from './cli-bundle.mjs';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const bundle = cliBundle(join(dirname(fileURLToPath(import.meta.url)), '..'));
let main;
if ('file' in bundle) {
  ({ main } = loadBundle(bundle.file));
} else {
  process.stderr.write(`clm: ${bundle.reason}; running the TypeScript sources (\`npm run build:cli\` starts faster)\n`);
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../lambdas/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
// Stopped by Ctrl-C/SIGTERM at a safe point: the interrupted run's last task is parked for good (so it never acts
// again) and its runner's timers would keep the process alive; everything is written, so leave now.
if (process.exitCode === 130) process.exit(130);
