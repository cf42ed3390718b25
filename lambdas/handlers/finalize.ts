import { finalizeTask } from '../tasks/cluster-update-tasks';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the finalize task (contract and logic: tasks/cluster-update-tasks.ts). */
export const handler = lambdaHandler(finalizeTask);
