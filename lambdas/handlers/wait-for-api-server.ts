import { waitForApiServerTask } from '../tasks/cluster-update-tasks';
import { waitForApiServerPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the waitForApiServer task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(waitForApiServerTask, waitForApiServerPorts);
