import { renderConfigTask } from '../tasks/cluster-update-tasks';
import { renderConfigPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the renderConfig task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(renderConfigTask, renderConfigPorts);
