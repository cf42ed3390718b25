import * as z from 'zod';
import { ClusterUpdateState, RolloutState, TaskPayload } from '../../contracts/cluster-update';
import { InvalidTaskInputError } from '../../shared/errors';
import type { RunRef } from './run-record';

const NoParams = z.object({}).strict().default({});

/** The payload of a cluster-update task: the execution's state and this state's `params`. */
export function clusterUpdatePayload<P extends z.ZodType = typeof NoParams>(params?: P) {
  return TaskPayload.extend({ state: ClusterUpdateState, params: params ?? NoParams });
}

/** The payload of the node-pool-rollout task. */
export const RolloutPayload = TaskPayload.extend({ state: RolloutState, params: NoParams });
export type RolloutPayload = z.infer<typeof RolloutPayload>;

type UpdatePayload = Pick<z.infer<ReturnType<typeof clusterUpdatePayload>>, 'state' | 'stateName'>;

/** The run a cluster-update task works on, from `$.run` (which Prepare wrote). */
export function runRef(payload: UpdatePayload): RunRef {
  const run = payload.state.run;
  if (!run) throw new InvalidTaskInputError(`${payload.stateName}: the state has no $.run (Prepare did not run)`);
  return { clusterId: payload.state.clusterId, targetVersion: run.targetVersion, holder: run.holder };
}
