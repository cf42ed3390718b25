import type { TriggerKind } from '../../../contracts/triggers';

/**
 * How a Lambda event of one trigger reaches a task and its result goes back (lambdas/contracts/triggers.ts says
 * what a task sees): a Function URL request becomes an HttpRequest and the HttpResponse a Function URL answer; a
 * DynamoDB stream batch becomes RegistryChanges. Triggers whose event already has the task's shape (schedules and
 * EventBridge rules with an input transformer) need none.
 */
export interface Transport {
  /** This event came through this transport. */
  accepts(event: unknown): boolean;
  input(event: unknown): unknown;
  output(result: unknown): unknown;
}

/** A module of runtime/lambda/transports/ (loaded with `import()` by a generated entry). */
export interface TransportModule {
  readonly transport: Transport;
}

/** The transport module of each trigger kind that needs one. */
export const TRANSPORT_MODULES: Partial<Record<TriggerKind, string>> = {
  http: 'http',
  'registry-stream': 'registry-stream',
};
