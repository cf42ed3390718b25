import { SFNClient } from '@aws-sdk/client-sfn';
import { SfnUpdateExecutions } from '../../../adapters/aws/sfn-update-executions';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { TASK_ENV } from '../task-environment';
import { traced } from '../tracing';

/** Port module of the cluster-update executions in Step Functions (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    executions: () =>
      new SfnUpdateExecutions({
        client: traced(new SFNClient({ region: env.region, ...(env.endpoint ? { endpoint: env.endpoint } : {}) })),
        stateMachineArn: env.required(TASK_ENV.clusterUpdateArn),
      }),
  };
}
