import type { UpdateOptions } from '../../contracts/cluster-update';
import { ClusterUpdateOutput } from '../../contracts/cluster-update';
import { executionName } from '../../core/dispatch/execution-name';
import type { Cluster } from '../../core/model/cluster';
import { isDecommission, runTargetVersion } from '../../core/model/update-decision';
import { resolveClusterConfigVersion } from '../../core/version/resolve-config-version';
import type { ConfigSource } from '../../ports/config-source';
import type { ExecutionHistory, ExecutionView } from '../../ports/execution-history';
import type { UpdateExecutions } from '../../ports/update-executions';
import { UsageError } from '../io';
import type { ClusterSummary } from '../provision/summary';
import { followExecution } from './follow-execution';
import { consoleLink } from '../../core/dispatch/console-link';

export interface RemoteServices {
  readonly executions: UpdateExecutions;
  readonly history: ExecutionHistory;
  readonly executionArn: (name: string) => string;
}

export interface RemoteOptions {
  readonly verb: 'provision' | 'decommission';
  readonly applyOnly: boolean;
  /** Execution options besides applyOnly (`--skip-rollback-resources`, `--keep-volumes`). */
  readonly extra?: Omit<UpdateOptions, 'applyOnly'>;
  /** Follow each execution until it ends (false: start them and return). */
  readonly follow: boolean;
  readonly print: (line: string) => void;
  readonly sleep: (ms: number) => Promise<void>;
  readonly pollMs: number;
}

const MAX_ATTEMPTS = 20;

/**
 * `clm provision --remote`: start the deployed cluster-update state machine for each selected cluster, under the
 * dispatcher's deterministic name (cluster, target version, attempt: a second start of the same work is "already
 * running", not a second execution), and follow it with the same progress lines as a local run.
 */
export async function runRemote(
  clusters: readonly Cluster[],
  sources: readonly ConfigSource[],
  services: RemoteServices,
  options: RemoteOptions,
): Promise<ClusterSummary[]> {
  const summaries: ClusterSummary[] = [];
  for (const cluster of clusters) {
    const decommission = isDecommission(options.verb, cluster);
    const resolved = await resolveClusterConfigVersion(cluster, sources);
    const targetVersion = runTargetVersion(resolved.id, cluster, decommission);
    const input = {
      clusterId: cluster.id,
      action: options.verb,
      options: { applyOnly: options.applyOnly, ...options.extra },
      trigger: 'cli-remote',
    };
    const started = await start(services, cluster, targetVersion, decommission, input);
    const arn = started.arn ?? services.executionArn(started.name);
    options.print(
      `${cluster.id}: ${options.verb} ${started.how === 'already-running' ? 'already running' : 'started'} as ${arn}`,
    );
    options.print(`  ${consoleLink(arn)}`);
    if (!options.follow) continue;
    const view = await followExecution(arn, { history: services.history, ...options });
    summaries.push(summaryOf(cluster, view));
  }
  return summaries;
}

async function start(
  services: RemoteServices,
  cluster: Cluster,
  targetVersion: string,
  decommission: boolean,
  input: Readonly<Record<string, unknown>>,
): Promise<{ name: string; arn?: string; how: string }> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const name = executionName({
      clusterId: cluster.id,
      localId: cluster.localId,
      action: decommission ? 'decommission' : 'update',
      targetVersion,
      attempt,
    });
    const result = await services.executions.start({ name, input });
    if (result.how !== 'name-taken') return result;
  }
  throw new UsageError(`${cluster.id}: ${MAX_ATTEMPTS} executions for ${targetVersion} exist already`);
}

export { consoleLink };

function summaryOf(cluster: Cluster, view: ExecutionView): ClusterSummary {
  const parsed = view.output ? ClusterUpdateOutput.safeParse(JSON.parse(view.output)) : undefined;
  const output = parsed?.success ? parsed.data : undefined;
  const decision = output?.run?.decision;
  const status: ClusterSummary['status'] =
    view.status !== 'SUCCEEDED'
      ? 'failed'
      : output?.held
        ? 'held'
        : decision === 'SKIP'
          ? 'skipped'
          : decision === 'NOOP'
            ? 'unchanged'
            : 'succeeded';
  return {
    id: cluster.id,
    status,
    version: output?.final?.version ?? '',
    message:
      view.status !== 'SUCCEEDED'
        ? `${view.status}: ${view.error ?? ''} ${view.cause ?? ''}`.trim()
        : (output?.final?.message ?? output?.held?.message ?? output?.run?.message ?? ''),
    stacks: [],
    nodesReplaced: 0,
    pdbViolations: 0,
    nodesTerminatedTwice: 0,
    stateTransitions: 0,
    simulatedSeconds: 0,
    problems: [],
  };
}
