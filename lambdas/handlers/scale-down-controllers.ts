import { scaleDownControllersTask } from '../tasks/cluster-update-tasks';
import { scaleDownControllersPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the scaleDownControllers task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(scaleDownControllersTask, scaleDownControllersPorts);
