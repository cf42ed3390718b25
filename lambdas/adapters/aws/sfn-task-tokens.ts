import { SendTaskFailureCommand, SendTaskSuccessCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { TaskTokens } from '../../ports/task-tokens';
import { toClmError } from './aws-errors';

/** Errors that say the wait is already over: nothing is waiting for this token any more. */
const WAIT_OVER = new Set(['TaskTimedOut', 'TaskDoesNotExist', 'InvalidToken']);

/** Step Functions SendTaskSuccess / SendTaskFailure. */
export class SfnTaskTokens implements TaskTokens {
  constructor(private readonly client: SFNClient) {}

  succeed(token: string, output: unknown): Promise<boolean> {
    return this.send(
      new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify(output) }),
      'SendTaskSuccess',
    );
  }

  fail(token: string, error: string, cause: string): Promise<boolean> {
    // Step Functions caps the cause at 32,768 characters.
    return this.send(
      new SendTaskFailureCommand({ taskToken: token, error, cause: cause.slice(0, 32_768) }),
      'SendTaskFailure',
    );
  }

  private async send(command: SendTaskSuccessCommand | SendTaskFailureCommand, what: string): Promise<boolean> {
    try {
      await this.client.send(command as SendTaskSuccessCommand);
      return true;
    } catch (error) {
      if (WAIT_OVER.has((error as { name?: string }).name ?? '')) return false;
      throw toClmError(error, `Step Functions ${what}`);
    }
  }
}
