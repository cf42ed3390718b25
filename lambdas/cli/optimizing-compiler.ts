import { setFlagsFromString } from 'node:v8';

/**
 * The prebuilt CLI starts without V8's optimizing compiler (bin/cli-bundle.mjs, SHORT_RUN_FLAGS): right for commands
 * that end within a second, whose CPU its background compilations would raise. Commands that run updates or serve
 * for minutes turn it back on before they start, so their hot loops (the state machine runner, the simulated world)
 * get optimized code. (Chunks loaded after this are compiled without their code cache, made under the other flags.)
 */
export function optimizeHotCode(): void {
  setFlagsFromString('--turbofan');
}
