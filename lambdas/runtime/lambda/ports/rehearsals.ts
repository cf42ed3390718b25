import clusterUpdate from '../../../../statemachines/cluster-update.asl.json';
import nodePoolRollout from '../../../../statemachines/node-pool-rollout.asl.json';
import { provideAsl } from '../../asl-files';
import { lazyRehearsals } from '../../rehearsal/lazy-rehearsals';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';

/**
 * Port module of the rehearsals (see ../port-modules.ts): the twin runs in the function, the state machines in
 * process from the ASL the bundle carries (a function has no statemachines/ beside its code). Only the tasks that
 * declare `rehearsals` carry the simulator.
 */
export async function portFactories(_context: WiringContext): Promise<PortFactories> {
  provideAsl({ clusterUpdate: JSON.stringify(clusterUpdate), nodePoolRollout: JSON.stringify(nodePoolRollout) });
  return { rehearsals: () => lazyRehearsals };
}
