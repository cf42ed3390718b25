#!/usr/bin/env node
// The `clm` command: runs the TypeScript CLI through tsx (no build step needed).
import { register } from 'tsx/esm/api';

register();
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { main } = await import('../lambdas/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
// Stopped by Ctrl-C/SIGTERM at a safe point: the interrupted run's last task is parked for good (so it never acts
// again) and its runner's timers would keep the process alive; everything is written, so leave now.
if (process.exitCode === 130) process.exit(130);
