import { removeDeletedPoolsTask } from '../tasks/cluster-update-tasks';
import { removeDeletedPoolsPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the removeDeletedPools task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(removeDeletedPoolsTask, removeDeletedPoolsPorts);
