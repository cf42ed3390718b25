import { rollNodePoolTask } from '../tasks/cluster-update-tasks';
import { rollNodePoolPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the rollNodePool task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(rollNodePoolTask, rollNodePoolPorts);
