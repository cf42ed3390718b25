import { isHolderGone } from '../shared/process-identity';
import { importCjs } from '../shared/import-cjs';
import type { ExecutionHistory } from '../ports/execution-history';

const EXECUTION = /^arn:[^:]+:states:([^:]+):\d{12}:execution:[^:]+:[^:]+$/;

/** Whether a lease's holder is known to have ended, and how that is known. */
export interface HolderEnd {
  readonly gone: boolean;
  /** `its holder is gone`, `its execution is ABORTED`, or why it could not be told. */
  readonly why?: string;
}

/**
 * Has the holder of a lease ended? A CLI process of this host that no longer runs, or a Step Functions execution
 * (the deployed service's holder is its execution ARN) whose status is not RUNNING — aborted, failed, timed out or
 * succeeded without releasing. Anything else (a process on another host, an execution that cannot be described)
 * may still be running.
 */
export async function holderEnd(holder: string, executions = stepFunctions): Promise<HolderEnd> {
  if (isHolderGone(holder)) return { gone: true, why: 'its holder is gone' };
  const region = EXECUTION.exec(holder)?.[1];
  if (!region) return { gone: false };
  try {
    const { status } = await (await executions(region)).describe(holder);
    return status === 'RUNNING'
      ? { gone: false, why: 'its execution is RUNNING' }
      : { gone: true, why: `its execution is ${status}` };
  } catch (error) {
    return { gone: false, why: `its execution could not be described: ${(error as Error).message}` };
  }
}

/** Step Functions of `region` (loaded only for an execution's lease: the SDK takes a while to import). */
async function stepFunctions(region: string): Promise<Pick<ExecutionHistory, 'describe'>> {
  const [{ SFNClient }, { SfnExecutionHistory }, { awsEndpointFromEnv }] = await Promise.all([
    importCjs(import('@aws-sdk/client-sfn')),
    import('../adapters/aws/sfn-execution-history'),
    import('../adapters/aws/aws-clients'),
  ]);
  const endpoint = awsEndpointFromEnv(process.env);
  return new SfnExecutionHistory(new SFNClient({ region, ...(endpoint ? { endpoint } : {}) }));
}
