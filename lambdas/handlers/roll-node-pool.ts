import { rollNodePoolTask } from '../tasks/cluster-update-tasks';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the rollNodePool task (contract and logic: tasks/cluster-update-tasks.ts). */
export const handler = lambdaHandler(rollNodePoolTask);
