import { deleteStacksTask } from '../tasks/cluster-update-tasks';
import { deleteStacksPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the deleteStacks task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(deleteStacksTask, deleteStacksPorts);
