import type { AnyTask } from './define-task';
import { task as applyKarpenterPools } from './apply-karpenter-pools';
import { task as applyManifests } from './apply-manifests';
import { task as awaitApproval } from './await-approval';
import { task as cleanUpLeftovers } from './clean-up-leftovers';
import { task as deleteStacks } from './delete-stacks';
import { task as deployStacks } from './deploy-stacks';
import { task as dispatchFleet } from './dispatch-fleet';
import { task as finalize } from './finalize';
import { task as githubWebhook } from './github-webhook';
import { task as planPullRequest } from './plan-pull-request';
import { task as planUpdate } from './plan-update';
import { task as readControlPlane } from './read-control-plane';
import { task as prepare } from './prepare';
import { task as recordProblem } from './record-problem';
import { task as registryChanged } from './registry-changed';
import { task as reportToForge } from './report-to-forge';
import { task as removeDeletedPools } from './remove-deleted-pools';
import { task as renderClusterResources } from './render-cluster-resources';
import { task as renderConfig } from './render-config';
import { task as reviewUpdate } from './review-update';
import { task as rollNodePool } from './roll-node-pool';
import { task as scaleDownControllers } from './scale-down-controllers';
import { task as stopAtSafePoint } from './stop-at-safe-point';
import { task as waitForApiServer } from './wait-for-api-server';

/**
 * Every Lambda task, one entry each. Infra derives from this list the functions (name, sizing, handler entry), the
 * ASL substitutions (`${<Name>FunctionArn}`) of state-machine tasks, the endpoint, schedule, stream mapping and
 * rules of triggered tasks, and the IAM grants (from each task's ports); the Lambda runtime derives which adapters
 * a function loads; the in-process runner maps the ASL's task states to these entries, `clm serve` and
 * `clm dispatch` run the triggered ones.
 */
export const TASK_CATALOGUE: readonly AnyTask[] = [
  prepare,
  renderConfig,
  reviewUpdate,
  awaitApproval,
  planUpdate,
  renderClusterResources,
  deployStacks,
  readControlPlane,
  waitForApiServer,
  rollNodePool,
  applyManifests,
  applyKarpenterPools,
  removeDeletedPools,
  scaleDownControllers,
  deleteStacks,
  cleanUpLeftovers,
  finalize,
  recordProblem,
  stopAtSafePoint,
  githubWebhook,
  dispatchFleet,
  registryChanged,
  reportToForge,
  planPullRequest,
];

/** The catalogue's task called `name`, or undefined. */
export function findTask(name: string, catalogue: readonly AnyTask[] = TASK_CATALOGUE): AnyTask | undefined {
  return catalogue.find((task) => task.name === name);
}
