import { waitForApiServerTask } from '../tasks/cluster-update-tasks';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the waitForApiServer task (contract and logic: tasks/cluster-update-tasks.ts). */
export const handler = lambdaHandler(waitForApiServerTask);
