import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotations, CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ClusterCloudAccess, crossAccountEnvironment } from '../constructs/cloud-access';
import { clusterTokenSecretsStatement } from '../constructs/cluster-access-policies';
import { ClusterUpdateWorkflow } from '../constructs/cluster-update-workflow';
import { NodePoolRolloutWorkflow } from '../constructs/node-pool-rollout-workflow';
import { TaskFunction } from '../constructs/task-function';
import { TASK_FUNCTIONS, TASK_FUNCTION_NAMES } from '../state-machine-substitutions';
import type { TaskFunctionName } from '../state-machine-substitutions';
import { TASK_ENV } from '../task-environment';
import { TASK_NEEDS } from '../task-permissions';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ClmWorkflowStackProps extends StackProps {
  /** The progress table (ClmStatefulStack). */
  readonly table: ITable;
  /** The artefact bucket (ClmStatefulStack). */
  readonly artifactBucket: IBucket;
  /**
   * `CLM_REGISTRY` of every task.
   * @default - unset (synth warns; Prepare fails naming the variable)
   */
  readonly registryUri?: string;
  /**
   * `CLM_CONFIG_SOURCES`, `NAME:git:URL` entries in order.
   * @default - none (synth warns)
   */
  readonly configSources?: readonly string[];
  /**
   * Role assumed in each cluster's account.
   * @default - same-account mode (see ClusterCloudAccess)
   */
  readonly assumedRoleName?: string;
  /**
   * Cross-account mode: the cluster accounts (the registry's), where the tasks may assume `assumedRoleName`.
   * @default - none (`organizationId` is then required)
   */
  readonly clusterAccountIds?: readonly string[];
  /**
   * Cross-account mode: assume `assumedRoleName` in any account of this organisation.
   * @default - only `clusterAccountIds`
   */
  readonly organizationId?: string;
  /**
   * Cross-account mode: the ExternalId the cluster accounts' role requires.
   * @default - none sent
   */
  readonly externalId?: string;
  /**
   * Name prefix of the per-cluster API token secrets (config item `kube_token_secret`) the tasks may read.
   * @default - none readable
   */
  readonly clusterTokenSecretPrefix?: string;
  /**
   * Same-account mode: names of the stacks CLM may write.
   * @default ['nodepool-*', 'kube-*']
   */
  readonly clusterStackNamePatterns?: readonly string[];
  /**
   * ARN of the Secrets Manager secret with the git, registry and cluster tokens.
   * @default - no secret
   */
  readonly tokenSecretArn?: string;
  /**
   * Directory of the handler entry files (absolute, or relative to the repository root).
   * @default 'lambdas/handlers'
   */
  readonly handlersDir?: string;
}

/**
 * The task functions and the two state machines. Takes the stateful resources as construct references, so they
 * survive this stack being replaced.
 */
export class ClmWorkflowStack extends Stack {
  public readonly functions: { readonly [K in TaskFunctionName]: TaskFunction };
  public readonly clusterUpdate: ClusterUpdateWorkflow;
  public readonly nodePoolRollout: NodePoolRolloutWorkflow;
  public readonly cloudAccess: ClusterCloudAccess;

  constructor(scope: Construct, id: string, props: ClmWorkflowStackProps) {
    super(scope, id, props);
    const handlersDir = resolveHandlersDir(props.handlersDir ?? 'lambdas/handlers');
    if (!props.registryUri)
      Annotations.of(this).addWarningV2(
        'clm:registryUri',
        `registryUri is not set: executions will fail at Prepare. Set it with -c registryUri=https://... or ${TASK_ENV.registryUri}.`,
      );
    if (!props.configSources?.length)
      Annotations.of(this).addWarningV2(
        'clm:configSources',
        'configSources is not set: nothing to render. Set it with -c configSources=NAME:git:URL[,...].',
      );

    const secret: ISecret | undefined = props.tokenSecretArn
      ? /-[A-Za-z0-9]{6}$/.test(props.tokenSecretArn)
        ? Secret.fromSecretCompleteArn(this, 'Tokens', props.tokenSecretArn)
        : Secret.fromSecretPartialArn(this, 'Tokens', props.tokenSecretArn)
      : undefined;
    this.cloudAccess = new ClusterCloudAccess(this, 'ClusterAccess', {
      assumedRoleName: props.assumedRoleName,
      clusterAccountIds: props.clusterAccountIds,
      organizationId: props.organizationId,
      clusterStackNamePatterns: props.clusterStackNamePatterns,
    });

    const environment: Record<string, string> = {
      ...(props.registryUri ? { [TASK_ENV.registryUri]: props.registryUri } : {}),
      ...(props.configSources?.length ? { [TASK_ENV.configSources]: props.configSources.join(',') } : {}),
      ...crossAccountEnvironment(props),
      ...(secret ? { [TASK_ENV.secretArn]: secret.secretArn } : {}),
    };

    const functions = {} as Record<TaskFunctionName, TaskFunction>;
    for (const name of TASK_FUNCTION_NAMES) {
      const needs = TASK_NEEDS[name];
      const fn = new TaskFunction(this, name, {
        entry: join(handlersDir, `${TASK_FUNCTIONS[name].handler}.ts`),
        projectRoot: REPO_ROOT,
        table: props.table,
        artifactBucket: props.artifactBucket,
        memorySize: needs.memorySize,
        timeout: needs.timeoutSeconds ? Duration.seconds(needs.timeoutSeconds) : undefined,
        description: `CLM ${name}: ${needs.description}`,
        environment: {
          ...environment,
          ...(this.cloudAccess.stackRole && needs.cloud.includes('stacks-write')
            ? { [TASK_ENV.stackRoleArn]: this.cloudAccess.stackRole.roleArn }
            : {}),
        },
      });
      props.table.grantReadWriteData(fn);
      props.artifactBucket.grantRead(fn);
      if (needs.artifacts === 'write') props.artifactBucket.grantPut(fn);
      if (needs.tokens && secret) secret.grantRead(fn);
      if (needs.tokens && props.clusterTokenSecretPrefix)
        fn.addToRolePolicy(clusterTokenSecretsStatement(props.clusterTokenSecretPrefix));
      this.cloudAccess.grant(fn, needs.cloud);
      functions[name] = fn;
    }
    this.functions = functions;

    this.nodePoolRollout = new NodePoolRolloutWorkflow(this, 'NodePoolRollout', {
      rollNodePool: functions.RollNodePool,
    });
    this.clusterUpdate = new ClusterUpdateWorkflow(this, 'ClusterUpdate', {
      functions: {
        Prepare: functions.Prepare,
        RenderConfig: functions.RenderConfig,
        RenderClusterResources: functions.RenderClusterResources,
        DeployStacks: functions.DeployStacks,
        WaitForApiServer: functions.WaitForApiServer,
        ApplyManifests: functions.ApplyManifests,
        RemoveDeletedPools: functions.RemoveDeletedPools,
        ScaleDownControllers: functions.ScaleDownControllers,
        DeleteStacks: functions.DeleteStacks,
        Finalize: functions.Finalize,
        RecordProblem: functions.RecordProblem,
      },
      rollout: this.nodePoolRollout,
    });

    new CfnOutput(this, 'ClusterUpdateStateMachineArn', { value: this.clusterUpdate.stateMachine.stateMachineArn });
    new CfnOutput(this, 'NodePoolRolloutStateMachineArn', { value: this.nodePoolRollout.stateMachine.stateMachineArn });
  }
}

function resolveHandlersDir(dir: string): string {
  const absolute = isAbsolute(dir) ? dir : resolve(REPO_ROOT, dir);
  const missing = TASK_FUNCTION_NAMES.map((name) => `${TASK_FUNCTIONS[name].handler}.ts`).filter(
    (file) => !existsSync(join(absolute, file)),
  );
  if (missing.length > 0) {
    throw new Error(
      `Handler entry files missing in ${absolute}: ${missing.join(', ')}. Each task needs lambdas/handlers/<name>.ts exporting \`handler\`.`,
    );
  }
  return absolute;
}
