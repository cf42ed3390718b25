/**
 * CLM's own CloudWatch metrics: what the tasks publish after each run (`metrics` of a task, written as embedded
 * metric format by the Lambda runtime) and what the dashboard and alarms read. One list, so the two agree.
 */
export const METRIC_NAMESPACE = 'CLM';
/** The `service` dimension of every metric (Powertools' service name; the functions' POWERTOOLS_SERVICE_NAME). */
export const CLM_SERVICE_NAME = 'clm';

export const CLM_METRICS = {
  /** DispatchFleet, RegistryChanged: clusters (not decommissioned) whose current version is not their target. */
  clustersBehindTarget: 'ClustersBehindTarget',
  /** Cluster-update executions a pass started or redrove. */
  updatesStarted: 'UpdatesStarted',
  /** Cluster-update executions running after a pass. */
  updatesRunning: 'UpdatesRunning',
  /** Rollouts held back by a failure (WaveHalted). */
  haltedWaves: 'HaltedWaves',
  /** RollNodePool: nodes a step finished replacing. */
  nodesReplaced: 'NodesReplaced',
  /** RollNodePool: steps whose drain a PodDisruptionBudget (or a pod) held up. */
  drainsBlocked: 'DrainsBlocked',
  /** RollNodePool: how long the longest drain that ended in a step took, cordon to termination (seconds). */
  drainSeconds: 'DrainSeconds',
  /** DispatchFleet, RegistryChanged: StartExecution/RedriveExecution answers Step Functions throttled (retried). */
  startsThrottled: 'StartsThrottled',
  /** RollNodePool: Auto Scaling calls (scale out, terminate) AWS throttled; each tried again after a back-off. */
  scalingThrottled: 'ScalingThrottled',
  /** RollNodePool: launches a step wanted and the account and region's launch budget held back (surge shrank or waited). */
  launchesDeferred: 'LaunchesDeferred',
  /** DeployStacks: CloudFormation create/update operations a call started. */
  stackOperations: 'StackOperations',
  /** Every task, dimension `task`: how long a call took (RenderConfig's and RenderClusterResources' is the render time). */
  taskDuration: 'TaskDuration',
} as const;
