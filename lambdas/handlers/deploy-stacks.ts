import { deployStacksTask } from '../tasks/cluster-update-tasks';
import { deployStacksPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the deployStacks task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(deployStacksTask, deployStacksPorts);
