import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotations, CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ASL_FILES, childMachinesIn, readAsl, type StateMachineKey } from '../../lambdas/runtime/asl-files';
import { TASK_ENV } from '../../lambdas/runtime/lambda/task-environment';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import type { AnyTask } from '../../lambdas/tasks/define-task';
import { AslStateMachine } from '../constructs/asl-state-machine';
import { ClusterCloudAccess, crossAccountEnvironment } from '../constructs/cloud-access';
import { clusterTokenSecretsStatement } from '../constructs/cluster-access-policies';
import { TaskFunction } from '../constructs/task-function';
import { writeHandlerEntry } from '../handler-entries';
import { taskGrants } from '../task-grants';

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
   * The tasks to deploy, one function each.
   * @default TASK_CATALOGUE (lambdas/tasks/catalogue.ts)
   */
  readonly tasks?: readonly AnyTask[];
  /**
   * ASL texts that replace the committed files (tests).
   * @default - statemachines/*.asl.json
   */
  readonly definitions?: Partial<Readonly<Record<StateMachineKey, string>>>;
}

/**
 * The task functions and the two state machines. Takes the stateful resources as construct references, so they
 * survive this stack being replaced.
 */
/**
 * The task functions and the state machines. Everything is derived from the task catalogue and the ASL files: one
 * function per task (its sizing, its generated entry, IAM from its ports), and per ASL file a state machine whose
 * substitutions and invoke grants follow the placeholders it names. Takes the stateful resources as construct
 * references, so they survive this stack being replaced.
 */
export class ClmWorkflowStack extends Stack {
  public readonly functions: ReadonlyMap<string, TaskFunction>;
  public readonly stateMachines: Readonly<Record<StateMachineKey, AslStateMachine>>;
  public readonly cloudAccess: ClusterCloudAccess;

  constructor(scope: Construct, id: string, props: ClmWorkflowStackProps) {
    super(scope, id, props);
    if (!props.registryUri) {
      Annotations.of(this).addWarningV2(
        'clm:registryUri',
        `registryUri is not set: executions will fail at Prepare. Set it with -c registryUri=https://... or ${TASK_ENV.registryUri}.`,
      );
    }
    if (!props.configSources?.length) {
      Annotations.of(this).addWarningV2(
        'clm:configSources',
        'configSources is not set: nothing to render. Set it with -c configSources=NAME:git:URL[,...].',
      );
    }
    const secret = tokenSecret(this, props.tokenSecretArn);
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
    const functions = new Map<string, TaskFunction>();
    for (const task of props.tasks ?? TASK_CATALOGUE) {
      functions.set(task.name, this.taskFunction(task, props, environment, secret));
    }
    this.functions = functions;
    this.stateMachines = this.createStateMachines(functions, props.definitions ?? {});
    for (const [key, machine] of Object.entries(this.stateMachines)) {
      new CfnOutput(this, `${key[0]!.toUpperCase()}${key.slice(1)}StateMachineArn`, {
        value: machine.stateMachine.stateMachineArn,
      });
    }
  }

  /** cluster-update, the machine the dispatcher and operators start. */
  get clusterUpdate(): AslStateMachine {
    return this.stateMachines.clusterUpdate;
  }

  /** node-pool-rollout, started by cluster-update once per pool. */
  get nodePoolRollout(): AslStateMachine {
    return this.stateMachines.nodePoolRollout;
  }

  private taskFunction(
    task: AnyTask,
    props: ClmWorkflowStackProps,
    environment: Readonly<Record<string, string>>,
    secret: ISecret | undefined,
  ): TaskFunction {
    const grants = taskGrants(task);
    const stackRole = this.cloudAccess.stackRole && grants.cloud.includes('stacks-write');
    const fn = new TaskFunction(this, task.name, {
      entry: writeHandlerEntry(task, REPO_ROOT),
      projectRoot: REPO_ROOT,
      table: props.table,
      artifactBucket: props.artifactBucket,
      memorySize: task.lambda?.memoryMb,
      timeout: task.lambda?.timeoutSeconds ? Duration.seconds(task.lambda.timeoutSeconds) : undefined,
      description: `CLM ${task.name}: ${task.description}`,
      environment: {
        ...environment,
        ...(stackRole ? { [TASK_ENV.stackRoleArn]: this.cloudAccess.stackRole!.roleArn } : {}),
      },
    });
    if (grants.table) props.table.grantReadWriteData(fn);
    if (grants.artifacts) props.artifactBucket.grantRead(fn);
    if (grants.artifacts === 'write') props.artifactBucket.grantPut(fn);
    if (grants.tokens && secret) secret.grantRead(fn);
    if (task.ports.kube && props.clusterTokenSecretPrefix)
      fn.addToRolePolicy(clusterTokenSecretsStatement(props.clusterTokenSecretPrefix));
    this.cloudAccess.grant(fn, grants.cloud);
    return fn;
  }

  /** One state machine per ASL file, children before the machines that start them. */
  private createStateMachines(
    functions: ReadonlyMap<string, IFunction>,
    definitions: Partial<Readonly<Record<StateMachineKey, string>>>,
  ): Record<StateMachineKey, AslStateMachine> {
    const created: Partial<Record<StateMachineKey, AslStateMachine>> = {};
    const text = (key: StateMachineKey) => definitions[key] ?? readAsl(key);
    const create = (key: StateMachineKey): AslStateMachine => {
      const existing = created[key];
      if (existing) return existing;
      const children: Partial<Record<StateMachineKey, StateMachine>> = {};
      for (const child of childMachinesIn(text(key))) children[child] = create(child).stateMachine;
      // `<Machine>/StateMachine`: the logical ids stay those of the earlier per-machine constructs.
      const scope = new Construct(this, `${key[0]!.toUpperCase()}${key.slice(1)}`);
      const machine = new AslStateMachine(scope, 'StateMachine', {
        definition: key,
        text: text(key),
        functions,
        children,
      });
      created[key] = machine;
      return machine;
    };
    for (const key of Object.keys(ASL_FILES) as StateMachineKey[]) create(key);
    return created as Record<StateMachineKey, AslStateMachine>;
  }
}

function tokenSecret(scope: Construct, arn: string | undefined): ISecret | undefined {
  if (!arn) return undefined;
  return /-[A-Za-z0-9]{6}$/.test(arn)
    ? Secret.fromSecretCompleteArn(scope, 'Tokens', arn)
    : Secret.fromSecretPartialArn(scope, 'Tokens', arn);
}
