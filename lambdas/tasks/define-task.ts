import type { z } from 'zod';
import type { Cluster } from '../core/model/cluster';
import type { ClusterPorts, Ports } from '../ports/ports';

/**
 * A task is one Lambda-backed state of a state machine, written in one file (`lambdas/tasks/<kebab-name>.ts`,
 * exporting `task`): its name, its payload and output contracts, the ports its step uses, its Lambda sizing and
 * the step itself. Everything else is derived from the task catalogue (catalogue.ts): the Lambda function, its
 * handler entry and the adapters that entry loads, the ASL substitution `${<Name>FunctionArn}`, and the IAM grants
 * (one grant per port and access, see infra/task-grants.ts).
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

export interface LambdaSizing {
  /** @default 512 */
  readonly memoryMb?: number;
  /** @default 60 */
  readonly timeoutSeconds?: number;
}

export interface TaskSpec<In, Out, N extends PortNeeds> {
  /** PascalCase; the ASL names the function `${<name>FunctionArn}` and the file is `lambdas/tasks/<kebab-name>.ts`. */
  readonly name: string;
  /** One line for the Lambda's description and the README. */
  readonly description: string;
  /** The payload the state passes (`{ state, executionId, stateName, params }`, see kit/payloads.ts). */
  readonly input: z.ZodType<In>;
  /** What the step returns (stored at the state's ResultPath). */
  readonly output: z.ZodType<Out>;
  readonly ports: N;
  readonly lambda?: LambdaSizing;
  step(input: In, ports: PortsFor<N>): Promise<Out>;
}

/** A task whose types are erased, as the catalogue and the runners hold it (inputs are parsed by its own contract). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTask = TaskSpec<any, any, PortNeeds>;

export function defineTask<In, Out, const N extends PortNeeds>(spec: TaskSpec<In, Out, N>): TaskSpec<In, Out, N> {
  return spec;
}

/** `DeployStacks` → `deploy-stacks`: the task's file name (and its Lambda entry's). */
export function taskFileName(name: string): string {
  return name.replace(/(?<=[a-z0-9])([A-Z])/g, '-$1').toLowerCase();
}
