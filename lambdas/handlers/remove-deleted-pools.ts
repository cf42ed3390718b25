import { removeDeletedPoolsTask } from '../tasks/cluster-update-tasks';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the removeDeletedPools task (contract and logic: tasks/cluster-update-tasks.ts). */
export const handler = lambdaHandler(removeDeletedPoolsTask);
