import { finalizeTask } from '../tasks/cluster-update-tasks';
import { finalizePorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the finalize task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(finalizeTask, finalizePorts);
