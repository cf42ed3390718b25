import type { Ports } from '../../ports/ports';
import { createLogger, type Logger } from '../../shared/logger';
import type { AnyTask } from '../../tasks/define-task';
import { restrictPorts, type PortFactories } from '../restrict-ports';
import { runTask } from '../run-task';
import { lambdaDeadline } from '../task-deadline';
import { durationLine, writeMetrics } from './emf-metrics';
import { wiringContext, type PortModule, type WiringContext } from './port-modules';
import type { Transport, TransportModule } from './transports/transport';

/** Loads one module of runtime/lambda/ports/ (a generated entry passes `() => import('…/ports/stores')` and so on). */
export type PortModuleLoader = () => Promise<PortModule>;
/** Loads one module of runtime/lambda/transports/ (for tasks whose trigger delivers another shape than their input). */
export type TransportLoader = () => Promise<TransportModule>;

/** The part of Lambda's invocation context a task uses. */
export interface LambdaInvocation {
  getRemainingTimeInMillis(): number;
}

export interface LambdaHandlerOptions {
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** @default createLogger() */
  readonly logger?: Logger;
  /** The transports of the task's triggers; an event none accepts is the task's input as it is. @default [] */
  readonly transports?: readonly TransportLoader[];
  /** Where the task's metrics go. @default stdout, in CloudWatch's embedded metric format */
  readonly writeMetric?: (line: string) => void;
}

/**
 * Wrap a task as a Lambda handler. Module init stays small: the port modules (only those of the task's ports) are
 * loaded on the first invocation and kept for the container's life (their ports are built again when the tokens
 * secret was rotated); a failed load is retried on the next one.
 * Correlation keys go on every log line, and errors keep their name so the ASL's Retry/Catch can match them.
 */
export function lambdaHandler(
  task: AnyTask,
  modules: readonly PortModuleLoader[],
  options: LambdaHandlerOptions = {},
): (event: unknown, context?: LambdaInvocation) => Promise<unknown> {
  const logger = options.logger ?? createLogger();
  let context: WiringContext | undefined;
  let ports: Promise<Ports> | undefined;
  const portsOnce = async (): Promise<Ports> => {
    context ??= wiringContext(options.env ?? process.env);
    const ready = context;
    // A rotated tokens secret: the ports built with the old tokens are dropped and built again with the new ones.
    if (ports && (await ready.tokensChanged())) ports = undefined;
    ports ??= Promise.all(modules.map(async (load) => (await load()).portFactories(ready))).then(
      (parts) => restrictPorts(task.name, task.ports, mergeFactories(parts)),
      (error: unknown) => {
        ports = undefined;
        throw error;
      },
    );
    return ports;
  };

  let transports: Promise<Transport[]> | undefined;
  const transportsOnce = (): Promise<Transport[]> => {
    transports ??= Promise.all((options.transports ?? []).map(async (load) => (await load()).transport));
    return transports;
  };

  return async (event: unknown, invocation?: LambdaInvocation) => {
    const payload = (event ?? {}) as {
      executionId?: string;
      stateName?: string;
      state?: { clusterId?: string; pool?: string };
    };
    logger.appendKeys({
      executionId: payload.executionId,
      stateName: payload.stateName ?? task.name,
      clusterId: payload.state?.clusterId,
      ...(payload.state?.pool ? { pool: payload.state.pool } : {}),
    });
    logger.info(`Running ${task.name}`);
    try {
      const transport = (await transportsOnce()).find((t) => t.accepts(event));
      const started = Date.now();
      // The invocation's deadline: a step with much work stops between objects before Lambda's timeout.
      const deadline = invocation ? lambdaDeadline(task, () => invocation.getRemainingTimeInMillis()) : undefined;
      const input = transport ? transport.input(event) : event;
      const result = await runTask(task, input, await portsOnce(), deadline);
      const write = options.writeMetric ?? ((line: string) => process.stdout.write(`${line}\n`));
      write(durationLine(task.name, Date.now() - started, Date.now()));
      if (task.metrics) writeMetrics(task.metrics(result), { task: task.name }, write);
      return transport ? transport.output(result) : result;
    } catch (error) {
      logger.error(`${task.name} failed`, error as Error);
      throw error;
    } finally {
      logger.resetKeys();
    }
  };
}

function mergeFactories(parts: readonly PortFactories[]): PortFactories {
  return parts.reduce<PortFactories>(
    (all, part) => ({ ...all, ...part, cluster: { ...all.cluster, ...part.cluster } }),
    {},
  );
}
