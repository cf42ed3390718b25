/**
 * The rehearsal engine as a function loads it: a file of its own beside the handler of each task that rehearses
 * (REHEARSAL_ENGINE_FILE, built by infra/constructs/rehearsal-engine-bundle.ts), required on the first rehearsal only,
 * so the handler's bundle and its cold start carry none of the twin (the simulator, the task catalogue, the in-process
 * ASL runner). It brings the state machines' ASL with it: a function has no statemachines/ beside its code.
 */
import clusterUpdate from '../../../statemachines/cluster-update.asl.json';
import nodePoolRollout from '../../../statemachines/node-pool-rollout.asl.json';
import { provideAsl } from '../asl-files';
import { TWIN_REHEARSALS } from './rehearse-update';

provideAsl({ clusterUpdate: JSON.stringify(clusterUpdate), nodePoolRollout: JSON.stringify(nodePoolRollout) });

export const rehearsals = TWIN_REHEARSALS;
