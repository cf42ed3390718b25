import type * as z from '../shared/zod';
import type { TriggerKind } from '../contracts/triggers';
import type { Cluster } from '../core/model/cluster';
import type { ClusterPorts, Ports } from '../ports/ports';

/**
 * A task is one Lambda function, written in one file (`lambdas/tasks/<kebab-name>.ts`, exporting `task`): its name,
 * its payload and output contracts, the ports its step uses, its Lambda sizing, the step itself and, for a function
 * that is not a state of a state machine, what triggers it. Everything else is derived from the task catalogue
 * (catalogue.ts): the Lambda function, its handler entry and the adapters that entry loads, the ASL substitution
 * `${<Name>FunctionArn}` (state-machine tasks) or the endpoint, schedule, stream mapping or EventBridge rule
 * (triggered tasks), and the IAM grants (one grant per port and access, see infra/task-grants.ts).
 */

export type SharedPortName = Exclude<keyof Ports, 'forCluster'>;
export type ClusterPortName = keyof ClusterPorts;
export type PortName = SharedPortName | ClusterPortName;

/** How a task uses a port: `read` or `write` decides the IAM grant (e.g. artefacts read vs put, stacks describe vs deploy). */
export type PortAccess = 'read' | 'write';

/** The ports a task uses, by name. Shared ports and per-cluster ports (`ports.forCluster(cluster).x`) have distinct names. */
export type PortNeeds = { readonly [K in PortName]?: PortAccess };

/** The ports a step receives: only those its task declares (touching another one is a type error, and at run time a ConfigError). */
export type PortsFor<N extends PortNeeds> = Pick<Ports, Extract<keyof N, SharedPortName>> & {
  forCluster(cluster: Cluster): Pick<ClusterPorts, Extract<keyof N, ClusterPortName>>;
};

/** A task function's memory unless its task says otherwise (MB). */
export const DEFAULT_TASK_MEMORY_MB = 512;

export interface LambdaSizing {
  /** @default DEFAULT_TASK_MEMORY_MB */
  readonly memoryMb?: number;
  /** @default 60 */
  readonly timeoutSeconds?: number;
  /**
   * A task of the node roll, the bulk of a fleet's Lambda concurrency: its function gets the deployment's reserved
   * concurrency for rolls (CDK context `rollReservedConcurrency`, docs/scale.md). @default false
   */
  readonly roll?: boolean;
}

/**
 * What invokes a function that is not a state of a state machine; lambdas/contracts/triggers.ts says what each
 * kind delivers (the runtimes turn their transports into those shapes):
 * - `http`: a public HTTPS endpoint (a Lambda Function URL; `clm serve` locally). Input HttpRequest, output HttpResponse.
 * - `schedule`: every N minutes (EventBridge Scheduler, CDK context `dispatchIntervalMinutes`). Input ScheduledPass.
 * - `registry-stream`: changes of our DynamoDB registry (the table's stream, registry items only). Input RegistryChanges.
 * - `execution-events`: a cluster-update execution ended (an EventBridge rule). Input ExecutionEndedPass.
 * - `push-events`: the webhook accepted a push (an EventBridge rule on PushAccepted). Input PushPass.
 * - `execution-status`: a cluster-update execution started or ended (an EventBridge rule). Input ExecutionStatusChange.
 * - `pull-request-events`: the webhook accepted a pull request (an EventBridge rule on PullRequestAccepted).
 */
export interface TaskTrigger {
  readonly kind: TriggerKind;
}

/** A figure a task publishes after each run (CloudWatch metric in namespace CLM; the dashboard reads them). */
export interface TaskMetric {
  readonly name: string;
  readonly value: number;
  /** @default 'Count' */
  readonly unit?: 'Count' | 'None' | 'Seconds';
}

export interface TaskSpec<In, Out, N extends PortNeeds> {
  /** PascalCase; the ASL names the function `${<name>FunctionArn}` and the file is `lambdas/tasks/<kebab-name>.ts`. */
  readonly name: string;
  /** One line for the Lambda's description and the README. */
  readonly description: string;
  /** The payload the state passes (`{ state, executionId, stateName, params }`, see step/payloads.ts). */
  readonly input: z.core.$ZodType<In>;
  /** What the step returns (stored at the state's ResultPath). */
  readonly output: z.core.$ZodType<Out>;
  readonly ports: N;
  readonly lambda?: LambdaSizing;
  /** What invokes the function. @default - a state of a state machine (`${<Name>FunctionArn}` in an ASL file) */
  readonly triggers?: readonly TaskTrigger[];
  /**
   * Artefact keys the task writes although its `artifacts` port only reads (the dispatcher's fleet page): the grant
   * is PutObject of exactly these objects. @default - none
   */
  readonly publishes?: readonly string[];
  /** Figures to publish after each run, read from the step's output (pure). @default - none */
  readonly metrics?: (output: Out) => readonly TaskMetric[];
  /** `context` says when to stop taking on work (a step may ignore it: most finish far within their timeout). */
  step(input: In, ports: PortsFor<N>, context: TaskContext): Promise<Out>;
}

/**
 * What the runtime tells a step about its invocation. A step with much work (thousands of manifests, hundreds of
 * deletions) checks `outOfTime()` between objects: once it is true the step records its cursor, returns
 * `CONTINUE`, and the state machine calls it again at once (statemachines/README.md).
 */
export interface TaskContext {
  /** True once the invocation's deadline is near: its Lambda timeout minus a safety margin (runtime/task-deadline.ts). */
  readonly outOfTime: () => boolean;
}

/** A task whose types are erased, as the catalogue and the runners hold it (inputs are parsed by its own contract). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTask = TaskSpec<any, any, PortNeeds>;

export function defineTask<In, Out, const N extends PortNeeds>(spec: TaskSpec<In, Out, N>): TaskSpec<In, Out, N> {
  return spec;
}

/** True for a task that an ASL state invokes (it declares no trigger). */
export function isStateMachineTask(task: Pick<AnyTask, 'triggers'>): boolean {
  return !task.triggers?.length;
}

/** The tasks a trigger kind invokes. */
export function triggeredBy(kind: TriggerKind, catalogue: readonly AnyTask[]): AnyTask[] {
  return catalogue.filter((task) => task.triggers?.some((trigger) => trigger.kind === kind));
}

/** `DeployStacks` → `deploy-stacks`: the task's file name (and its Lambda entry's). */
export function taskFileName(name: string): string {
  return name.replace(/(?<=[a-z0-9])([A-Z])/g, '-$1').toLowerCase();
}

/** The memory a task's function gets (MB). */
export function taskMemoryMb(task: Pick<AnyTask, 'lambda'>): number {
  return task.lambda?.memoryMb ?? DEFAULT_TASK_MEMORY_MB;
}
