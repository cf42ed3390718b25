import { ClmEventSchemas } from '../constructs/event-schemas';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotations, CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ASL_FILES, childMachinesIn, readAsl, type StateMachineKey } from '../../lambdas/runtime/asl-files';
import { TASK_ENV } from '../../lambdas/runtime/lambda/task-environment';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import { isStateMachineTask, type AnyTask } from '../../lambdas/tasks/define-task';
import { AslStateMachine } from '../constructs/asl-state-machine';
import { ClmMonitoring } from '../constructs/clm-monitoring';
import { ClusterCloudAccess, crossAccountEnvironment } from '../constructs/cloud-access';
import { clusterTokenSecretsStatement } from '../constructs/cluster-access-policies';
import { grantFleetAccess } from '../constructs/fleet-access';
import type { ClmWorkflowStackProps } from './clm-workflow-stack-props';
import { TaskFunction } from '../constructs/task-function';
import { TaskTriggers } from '../constructs/task-triggers';
import { acknowledge } from '../nag';
import { writeHandlerEntry } from '../handler-entries';
import { taskGrants } from '../task-grants';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type { ClmWorkflowStackProps } from './clm-workflow-stack-props';

/** `registryUri=dynamodb://` (no table): the registry is CLM's own table, whose stream then triggers passes. */
export const OWN_TABLE_REGISTRY = 'dynamodb://';

/**
 * The task functions, the state machines and what triggers the rest. Everything is derived from the task catalogue
 * and the ASL files: one function per task (its sizing, its generated entry, IAM from its ports), per ASL file a
 * state machine whose substitutions and invoke grants follow the placeholders it names, and for the tasks that are
 * not states the endpoint, schedule, stream mapping and rules of their triggers (TaskTriggers); an alarm topic and
 * a dashboard (ClmMonitoring). Takes the stateful resources as construct references, so they survive this stack
 * being replaced.
 */
export class ClmWorkflowStack extends Stack {
  public readonly functions: ReadonlyMap<string, TaskFunction>;
  public readonly stateMachines: Readonly<Record<StateMachineKey, AslStateMachine>>;
  public readonly cloudAccess: ClusterCloudAccess;
  public readonly triggers: TaskTriggers;
  public readonly monitoring: ClmMonitoring;
  /** The GitHub webhook secret (absent when no task verifies webhooks). */
  public readonly webhookSecret?: ISecret;

  constructor(scope: Construct, id: string, props: ClmWorkflowStackProps) {
    super(scope, id, props);
    const ownRegistry = props.registryUri === OWN_TABLE_REGISTRY;
    const registryUri = ownRegistry ? `dynamodb://${props.table.tableName}` : props.registryUri;
    if (!registryUri) {
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
      clusterResourceNamePatterns: props.clusterResourceNamePatterns,
      sharedStackNamePatterns: props.sharedStackNamePatterns,
    });
    const environment: Record<string, string> = {
      ...(registryUri ? { [TASK_ENV.registryUri]: registryUri } : {}),
      ...(props.configSources?.length ? { [TASK_ENV.configSources]: props.configSources.join(',') } : {}),
      ...crossAccountEnvironment(props),
      ...(secret ? { [TASK_ENV.secretArn]: secret.secretArn } : {}),
    };
    const tasks = props.tasks ?? TASK_CATALOGUE;
    const functions = new Map<string, TaskFunction>();
    for (const task of tasks) functions.set(task.name, this.taskFunction(task, props, environment, secret));
    this.functions = functions;
    this.stateMachines = this.createStateMachines(functions, props.definitions ?? {});
    for (const [key, machine] of Object.entries(this.stateMachines)) {
      new CfnOutput(this, `${key[0]!.toUpperCase()}${key.slice(1)}StateMachineArn`, {
        value: machine.stateMachine.stateMachineArn,
      });
    }
    this.webhookSecret = tasks.some((t) => t.ports.webhooks) ? webhookSecret(this, props.webhookSecretArn) : undefined;
    const fleet = this.wireFleet(tasks, functions, props, ownRegistry);
    this.triggers = fleet.triggers;
    this.monitoring = fleet.monitoring;
  }

  /** The fleet ports' access, the triggers of the tasks that are not states, the alarm topic and the dashboard. */
  private wireFleet(
    tasks: readonly AnyTask[],
    functions: ReadonlyMap<string, TaskFunction>,
    props: ClmWorkflowStackProps,
    ownRegistry: boolean,
  ): { triggers: TaskTriggers; monitoring: ClmMonitoring } {
    const clusterUpdate = this.stateMachines.clusterUpdate.stateMachine;
    const forgeSecret = props.forgeSecretArn ? importedSecret(this, 'ForgeSecret', props.forgeSecretArn) : undefined;
    for (const task of tasks) {
      grantFleetAccess(functions.get(task.name)!, task, taskGrants(task), {
        clusterUpdate,
        webhookSecret: this.webhookSecret!,
        fleetSettings: props.fleetSettings ?? {},
        ...(forgeSecret ? { forgeSecret } : {}),
        ...(props.githubApiUrl ? { githubApiUrl: props.githubApiUrl } : {}),
      });
    }
    const triggers = new TaskTriggers(this, 'Triggers', {
      tasks,
      functions,
      clusterUpdate,
      table: props.table,
      registryStream: ownRegistry,
      dispatchIntervalMinutes: props.dispatchIntervalMinutes ?? 5,
    });
    const triggered = tasks.filter((t) => !isStateMachineTask(t)).map((t) => [t.name, functions.get(t.name)!] as const);
    const monitoring = new ClmMonitoring(this, 'Monitoring', {
      clusterUpdate,
      alarms: Object.values(this.stateMachines).map((m) => m.failureAlarm),
      watchedFunctions: new Map(triggered),
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn });
    const schemas = new ClmEventSchemas(this, 'EventSchemas');
    new CfnOutput(this, 'EventSchemaRegistry', { value: schemas.registryName });
    return { triggers, monitoring };
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
      rehearsalEngine: task.ports.rehearsals !== undefined,
      table: props.table,
      artifactBucket: props.artifactBucket,
      memorySize: task.lambda?.memoryMb,
      timeout: task.lambda?.timeoutSeconds ? Duration.seconds(task.lambda.timeoutSeconds) : undefined,
      description: `CLM ${task.name}: ${task.description}`,
      ...(task.lambda?.roll && props.rollReservedConcurrency !== undefined
        ? { reservedConcurrentExecutions: props.rollReservedConcurrency }
        : {}),
      environment: {
        ...environment,
        ...(stackRole ? { [TASK_ENV.stackRoleArn]: this.cloudAccess.stackRole!.roleArn } : {}),
      },
    });
    if (grants.table) props.table.grantReadWriteData(fn);
    if (grants.artifacts) props.artifactBucket.grantRead(fn);
    if (grants.artifacts === 'write') props.artifactBucket.grantPut(fn);
    // A reader's own objects (DispatchFleet's fleet page): PutObject of those only.
    for (const key of grants.artifactKeys ?? []) props.artifactBucket.grantPut(fn, key);
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
  return arn ? importedSecret(scope, 'Tokens', arn) : undefined;
}

function importedSecret(scope: Construct, id: string, arn: string): ISecret {
  return /-[A-Za-z0-9]{6}$/.test(arn)
    ? Secret.fromSecretCompleteArn(scope, id, arn)
    : Secret.fromSecretPartialArn(scope, id, arn);
}

/** The characters Secrets Manager's ExcludePunctuation leaves out (ASCII punctuation). */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** The given webhook secret, or a new one with a random value (read it to set up the GitHub hook). */
function webhookSecret(scope: Construct, arn: string | undefined): ISecret {
  const secret = arn
    ? importedSecret(scope, 'WebhookSecret', arn)
    : new Secret(scope, 'WebhookSecret', {
        description: 'CLM: the secret GitHub signs webhook deliveries with (paste it into the hook)',
        // Letters and digits. The punctuation ExcludePunctuation removes is also spelled out: the webhook reads a secret
        // starting with `{` as its JSON form, and an emulator ignoring ExcludePunctuation (MiniStack 1.5) generated
        // one on a deployed-tier run.
        generateSecretString: { passwordLength: 40, excludePunctuation: true, excludeCharacters: PUNCTUATION },
      });
  if (secret instanceof Secret) {
    acknowledge(
      secret,
      'AwsSolutions-SMG4',
      'The webhook secret is shared with GitHub: rotating it means changing the hook too. Rotate by hand with the {"secret", "previous"} form, which the webhook accepts during the change.',
    );
  }
  new CfnOutput(scope, 'WebhookSecretArn', { value: secret.secretArn });
  return secret;
}
