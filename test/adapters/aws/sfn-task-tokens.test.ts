import { SFNClient, SendTaskFailureCommand, SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { SfnTaskTokens } from '../../../lambdas/adapters/aws/sfn-task-tokens';

const sfn = mockClient(SFNClient);
beforeEach(() => sfn.reset());

describe('SfnTaskTokens', () => {
  it('sends success with the output as JSON, and failure with error and cause', async () => {
    sfn.on(SendTaskSuccessCommand).resolves({});
    sfn.on(SendTaskFailureCommand).resolves({});
    const tokens = new SfnTaskTokens(new SFNClient({ region: 'eu-central-1' }));
    expect(await tokens.succeed('t1', { status: 'APPROVED' })).toBe(true);
    expect(await tokens.fail('t2', 'UpdateRejectedError', 'no')).toBe(true);
    expect(sfn.commandCalls(SendTaskSuccessCommand)[0]!.args[0].input).toEqual({
      taskToken: 't1',
      output: '{"status":"APPROVED"}',
    });
    expect(sfn.commandCalls(SendTaskFailureCommand)[0]!.args[0].input).toEqual({
      taskToken: 't2',
      error: 'UpdateRejectedError',
      cause: 'no',
    });
  });

  it('answers false when nothing waits any more (TaskTimedOut, TaskDoesNotExist), and throws on other errors', async () => {
    const tokens = new SfnTaskTokens(new SFNClient({ region: 'eu-central-1' }));
    const failWith = (name: string) => {
      sfn.reset();
      sfn.on(SendTaskSuccessCommand).rejects(Object.assign(new Error(name), { name }));
    };
    failWith('TaskTimedOut');
    expect(await tokens.succeed('t', {})).toBe(false);
    failWith('TaskDoesNotExist');
    expect(await tokens.succeed('t', {})).toBe(false);
    failWith('AccessDeniedException');
    await expect(tokens.succeed('t', {})).rejects.toThrow(/SendTaskSuccess/);
  });
});
