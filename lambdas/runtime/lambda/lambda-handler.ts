import type { Ports } from '../../ports/ports';
import { createLogger, type Logger } from '../../shared/logger';
import type { AnyTask } from '../../tasks/define-task';
import { restrictPorts, type PortFactories } from '../restrict-ports';
import { runTask } from '../run-task';
import { wiringContext, type PortModule, type WiringContext } from './port-modules';

export interface LambdaHandlerOptions {
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** @default createLogger() */
  readonly logger?: Logger;
}

/** Loads one module of runtime/lambda/ports/ (a generated entry passes `() => import('…/ports/stores')` and so on). */
export type PortModuleLoader = () => Promise<PortModule>;

/**
 * Wrap a task as a Lambda handler. Module init stays small: the port modules (only those of the task's ports) are
 * loaded on the first invocation and kept for the container's life; a failed load is retried on the next one.
 * Correlation keys go on every log line, and errors keep their name so the ASL's Retry/Catch can match them.
 */
export function lambdaHandler(
  task: AnyTask,
  modules: readonly PortModuleLoader[],
  options: LambdaHandlerOptions = {},
): (event: unknown) => Promise<unknown> {
  const logger = options.logger ?? createLogger();
  let context: WiringContext | undefined;
  let ports: Promise<Ports> | undefined;
  const portsOnce = (): Promise<Ports> => {
    context ??= wiringContext(options.env ?? process.env);
    const ready = context;
    ports ??= Promise.all(modules.map(async (load) => (await load()).portFactories(ready))).then(
      (parts) => restrictPorts(task.name, task.ports, mergeFactories(parts)),
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
    logger.appendKeys({
      executionId: payload.executionId,
      stateName: payload.stateName ?? task.name,
      clusterId: payload.state?.clusterId,
      ...(payload.state?.pool ? { pool: payload.state.pool } : {}),
    });
    logger.info(`Running ${task.name}`);
    try {
      return await runTask(task, event, await portsOnce());
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
