import * as z from '../../shared/zod';
import { ClusterUpdateState, RolloutState, TaskPayload } from '../../contracts/cluster-update';
import { InvalidTaskInputError } from '../../shared/errors';
import type { RunRef } from './run-record';

const NoParams = z._default(z.strictObject({}), {});

/** The payload of a cluster-update task: the execution's state and this state's `params`. */
export function clusterUpdatePayload<P extends z.ZodMiniType = typeof NoParams>(params?: P) {
  return z.extend(TaskPayload, { state: ClusterUpdateState, params: params ?? NoParams });
}

/** The payload of the node-pool-rollout task. */
export const RolloutPayload = z.extend(TaskPayload, { state: RolloutState, params: NoParams });
export type RolloutPayload = z.infer<typeof RolloutPayload>;

type UpdatePayload = Pick<z.infer<ReturnType<typeof clusterUpdatePayload>>, 'state' | 'stateName'>;

/** The run a cluster-update task works on, from `$.run` (which Prepare wrote). */
export function runRef(payload: UpdatePayload): RunRef {
  const run = payload.state.run;
  if (!run) throw new InvalidTaskInputError(`${payload.stateName}: the state has no $.run (Prepare did not run)`);
  return { clusterId: payload.state.clusterId, targetVersion: run.targetVersion, holder: run.holder };
}
