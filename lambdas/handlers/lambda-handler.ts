import type { Ports } from '../ports/ports';
import { ConfigError } from '../shared/errors';
import { createLogger } from '../shared/logger';
import type { Logger } from '../shared/logger';
import { invokeTask } from '../shared/task';
import type { TaskDefinition } from '../shared/task';
import type { TaskName } from '../tasks/cluster-update-tasks';
import { lazyPorts } from '../adapters/wiring/lazy-ports';
import { wiringContext } from '../adapters/wiring/lambda-ports';
import type { TaskWiring, WiringContext } from '../adapters/wiring/lambda-ports';

export interface LambdaHandlerOptions {
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** @default createLogger() */
  readonly logger?: Logger;
}

/**
 * Wrap a task definition as a Lambda handler. Module init stays small: the task's adapters (`wiring`, only those its
 * task uses) are loaded on the first invocation and kept for the container's life; a failed load is retried on the
 * next one. Correlation keys go on every log line, and errors keep their name so the ASL's Retry/Catch can match them.
 */
export function lambdaHandler<N extends TaskName, In, Out>(
  task: TaskDefinition<In, Out, Ports>,
  wiring: TaskWiring<N>,
  options: LambdaHandlerOptions = {},
): (event: unknown) => Promise<Out> {
  if (task.name !== wiring.task)
    throw new ConfigError(`the handler of task ${task.name} is wired for task ${wiring.task}`);
  const logger = options.logger ?? createLogger();
  let context: WiringContext | undefined;
  let ports: Promise<Ports> | undefined;
  const portsOnce = (): Promise<Ports> => {
    context ??= wiringContext(options.env ?? process.env);
    ports ??= wiring.load(context).then(
      (factories) => lazyPorts(wiring.task, factories),
      (error: unknown) => {
        ports = undefined;
        throw error;
      },
    );
    return ports;
  };

  return async (event: unknown) => {
    const payload = (event ?? {}) as {
      executionId?: string;
      stateName?: string;
      state?: { clusterId?: string; pool?: string };
    };
    const stateName = payload.stateName ?? task.name;
    logger.appendKeys({
      executionId: payload.executionId,
      stateName,
      clusterId: payload.state?.clusterId,
      ...(payload.state?.pool ? { pool: payload.state.pool } : {}),
    });
    logger.info(`Running ${task.name}`);
    try {
      return await invokeTask(task, event, await portsOnce(), {
        executionId: payload.executionId ?? 'unknown',
        stateName,
        logger,
      });
    } catch (error) {
      logger.error(`${task.name} failed`, error as Error);
      throw error;
    } finally {
      logger.resetKeys();
    }
  };
}
