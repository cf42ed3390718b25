import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rehearsals } from '../../../ports/rehearsals';
import { REHEARSAL_ENGINE_FILE } from '../../rehearsal/rehearsal-engine-file';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';

/** The engine beside this bundle, required once, on the first rehearsal. */
let engine: Rehearsals | undefined;
function loadEngine(): Rehearsals {
  if (engine) return engine;
  const file = join(dirname(fileURLToPath(import.meta.url)), REHEARSAL_ENGINE_FILE);
  if (!existsSync(file))
    throw new Error(
      `the rehearsal engine ${file} is not beside the handler (TaskFunction builds it for the tasks that rehearse)`,
    );
  engine = (createRequire(import.meta.url)(file) as { rehearsals: Rehearsals }).rehearsals;
  return engine;
}

/**
 * Port module of the rehearsals (see ../port-modules.ts): the twin runs in the function, from the rehearsal engine
 * file TaskFunction puts beside the handler of the tasks that declare `rehearsals` (runtime/rehearsal/
 * rehearsal-engine.ts). The handler's bundle carries none of it; a container loads it on its first rehearsal.
 */
export async function portFactories(_context: WiringContext): Promise<PortFactories> {
  const rehearsals: Rehearsals = {
    rehearse: (cluster, live, options) => loadEngine().rehearse(cluster, live, options),
  };
  return { rehearsals: () => rehearsals };
}
