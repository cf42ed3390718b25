import { renderClusterResourcesTask } from '../tasks/cluster-update-tasks';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the renderClusterResources task (contract and logic: tasks/cluster-update-tasks.ts). */
export const handler = lambdaHandler(renderClusterResourcesTask);
