import { renderClusterResourcesTask } from '../tasks/cluster-update-tasks';
import { renderClusterResourcesPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the renderClusterResources task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(renderClusterResourcesTask, renderClusterResourcesPorts);
