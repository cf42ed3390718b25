import { holderEnd } from '../../lambdas/cli/lease-holder';
import { currentProcess, processHolder } from '../../lambdas/shared/process-identity';

const EXECUTION = 'arn:aws:states:eu-central-1:123456789012:execution:ClusterUpdate:kube-test-1';

/** Step Functions answering DescribeExecution with `status` for EXECUTION, in eu-central-1 only. */
function stepFunctions(status: string) {
  const asked: string[] = [];
  const executions = async (region: string) => ({
    describe: async (arn: string) => {
      asked.push(`${region} ${arn}`);
      if (region !== 'eu-central-1' || arn !== EXECUTION) throw new Error(`ExecutionDoesNotExist: ${arn}`);
      return { status, startedAt: 0 };
    },
  });
  return { executions, asked };
}

describe('holderEnd', () => {
  it('an execution that was aborted, failed or timed out has ended; a running one has not', async () => {
    for (const status of ['ABORTED', 'FAILED', 'TIMED_OUT', 'SUCCEEDED'])
      expect(await holderEnd(EXECUTION, stepFunctions(status).executions)).toEqual({
        gone: true,
        why: `its execution is ${status}`,
      });
    const running = stepFunctions('RUNNING');
    expect(await holderEnd(EXECUTION, running.executions)).toEqual({ gone: false, why: 'its execution is RUNNING' });
    expect(running.asked).toEqual([`eu-central-1 ${EXECUTION}`]);
  });

  it('an execution that cannot be described may still run; a CLI process of this host is checked by its pid', async () => {
    const missing = await holderEnd(EXECUTION.replace('kube-test-1', 'other'), stepFunctions('ABORTED').executions);
    expect(missing.gone).toBe(false);
    expect(missing.why).toContain('could not be described');
    expect(await holderEnd(processHolder())).toEqual({ gone: false });
    const dead = processHolder({ ...currentProcess(), pid: 4194305, startedAt: 1 });
    expect(await holderEnd(dead)).toEqual({ gone: true, why: 'its holder is gone' });
  });
});
