import { recordProblemTask } from '../tasks/cluster-update-tasks';
import { recordProblemPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the recordProblem task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(recordProblemTask, recordProblemPorts);
