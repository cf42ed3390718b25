import { applyManifestsTask } from '../tasks/cluster-update-tasks';
import { applyManifestsPorts } from '../adapters/wiring/lambda-ports';
import { lambdaHandler } from './lambda-handler';

/** Lambda entry of the applyManifests task (contract and logic: tasks/cluster-update-tasks.ts; ports: adapters/wiring/lambda-ports.ts). */
export const handler = lambdaHandler(applyManifestsTask, applyManifestsPorts);
