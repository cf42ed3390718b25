import { UsageError } from '../io';
import type { RemoteServices } from './remote-provision';
import { importCjs } from '../../shared/import-cjs';

const STATE_MACHINE = /^arn:[^:]+:states:([^:]+):\d{12}:stateMachine:[^:]+$/;

/** Step Functions for `--remote ARN`, in the state machine's region (loaded only then: the SDK takes a while). */
export async function remoteServices(stateMachineArn: string): Promise<RemoteServices> {
  const region = STATE_MACHINE.exec(stateMachineArn)?.[1];
  if (!region)
    throw new UsageError(
      `--remote ${stateMachineArn}: give the cluster-update state machine's ARN (the ClmWorkflow stack's output)`,
    );
  const [{ SFNClient }, { SfnUpdateExecutions }, { SfnExecutionHistory }, { awsEndpointFromEnv }] = await Promise.all([
    importCjs(import('@aws-sdk/client-sfn')),
    import('../../adapters/aws/sfn-update-executions'),
    import('../../adapters/aws/sfn-execution-history'),
    import('../../adapters/aws/aws-clients'),
  ]);
  const endpoint = awsEndpointFromEnv(process.env);
  const client = new SFNClient({ region, ...(endpoint ? { endpoint } : {}) });
  const executions = new SfnUpdateExecutions({ client, stateMachineArn });
  return {
    executions,
    history: new SfnExecutionHistory(client),
    executionArn: (name) => executions.executionArn(name),
  };
}
