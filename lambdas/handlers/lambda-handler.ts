import type { Ports } from '../ports/ports';
import { createLogger } from '../shared/logger';
import { invokeTask, type TaskDefinition } from '../shared/task';
import { awsPortsFromEnvironment } from '../adapters/wiring/aws-ports';

const logger = createLogger();
let ports: Ports | undefined;

/**
 * Wrap a task definition as a Lambda handler: ports are built once per container (lazily, on the first
 * invocation, so module init stays small), correlation keys go on every log line, and errors keep their
 * name so the ASL's Retry/Catch can match them.
 */
export function lambdaHandler<In, Out>(task: TaskDefinition<In, Out, Ports>): (event: unknown) => Promise<Out> {
  return async (event: unknown) => {
    ports ??= awsPortsFromEnvironment(process.env, logger);
    const payload = event as { executionId?: string; stateName?: string; state?: { clusterId?: string } };
    logger.appendKeys({ executionId: payload.executionId, stateName: payload.stateName ?? task.name, clusterId: payload.state?.clusterId });
    logger.info(`Running ${task.name}`);
    try {
      return await invokeTask(task, event, ports, { executionId: payload.executionId ?? 'unknown', stateName: payload.stateName ?? task.name, logger });
    } catch (error) {
      logger.error(`${task.name} failed`, error as Error);
      throw error;
    } finally {
      logger.resetKeys();
    }
  };
}
