#!/usr/bin/env node
// The `clm` command: runs the TypeScript CLI through tsx (no build step needed).
import { register } from 'tsx/esm/api';

register();
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { main } = await import('../lambdas/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
