import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import type { ExecutionHistory, ExecutionView, HistoryEventView } from '../../ports/execution-history';
import { toClmError } from './aws-errors';

/** An execution's history and status from Step Functions (GetExecutionHistory, DescribeExecution). */
export class SfnExecutionHistory implements ExecutionHistory {
  constructor(private readonly client: SFNClient) {}

  async events(executionArn: string, afterId: number): Promise<readonly HistoryEventView[]> {
    const events: HistoryEventView[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.client
        .send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000, nextToken, includeExecutionData: true }))
        .catch((error: unknown) => {
          throw toClmError(error, `Step Functions GetExecutionHistory ${executionArn}`);
        });
      for (const event of page.events ?? []) if ((event.id ?? 0) > afterId) events.push(view(event));
      nextToken = page.nextToken;
    } while (nextToken);
    return events;
  }

  async describe(executionArn: string): Promise<ExecutionView> {
    const result = await this.client.send(new DescribeExecutionCommand({ executionArn })).catch((error: unknown) => {
      throw toClmError(error, `Step Functions DescribeExecution ${executionArn}`);
    });
    return {
      status: result.status ?? 'RUNNING',
      startedAt: result.startDate?.getTime() ?? 0,
      ...(result.output ? { output: result.output } : {}),
      ...(result.error ? { error: result.error } : {}),
      ...(result.cause ? { cause: result.cause } : {}),
    };
  }
}

function view(event: HistoryEvent): HistoryEventView {
  const submitted = event.taskSubmittedEventDetails?.output;
  const child = submitted ? (JSON.parse(submitted) as { ExecutionArn?: string }).ExecutionArn : undefined;
  return {
    id: event.id ?? 0,
    type: event.type ?? '',
    timestamp: event.timestamp?.getTime() ?? 0,
    ...(event.stateEnteredEventDetails?.name ? { stateName: event.stateEnteredEventDetails.name } : {}),
    ...(event.lambdaFunctionSucceededEventDetails?.output
      ? { output: event.lambdaFunctionSucceededEventDetails.output }
      : {}),
    ...(child ? { childExecutionArn: child } : {}),
  };
}
