import { scaleDownControllersTask } from '../tasks/cluster-update-tasks';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the scaleDownControllers task (contract and logic: tasks/cluster-update-tasks.ts). */
export const handler = lambdaHandler(scaleDownControllersTask);
