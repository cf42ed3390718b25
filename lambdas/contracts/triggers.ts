import * as z from '../shared/zod';

/**
 * What a function that is not a state of a state machine receives, by trigger kind (`triggers` of a task,
 * lambdas/tasks/define-task.ts). The transports differ (a Lambda Function URL or `clm serve`'s HTTP server, an
 * EventBridge schedule or rule, a DynamoDB stream, `clm dispatch`); each runtime turns its transport into these
 * shapes, so a task is written once.
 */

export const TRIGGER_KINDS = [
  'http',
  'schedule',
  'registry-stream',
  'execution-events',
  'execution-status',
  'push-events',
  'pull-request-events',
] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** An HTTP request, body decoded to text (the signature of a webhook covers these bytes). */
export const HttpRequest = z.object({
  method: z.string().check(z.minLength(1)),
  path: z.string(),
  /** Header names in any case. */
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});
export type HttpRequest = z.infer<typeof HttpRequest>;

/** An HTTP answer: a JSON body. */
export const HttpResponse = z.object({
  status: z.number().check(z.int(), z.minimum(100), z.maximum(599)),
  body: z.record(z.string(), z.unknown()),
});
export type HttpResponse = z.infer<typeof HttpResponse>;

/** `schedule`: every N minutes, the whole fleet; `changesOnly` limits starts to clusters the registry changed. */
export const ScheduledPass = z.object({
  trigger: z.literal('schedule'),
  changesOnly: z.optional(z.boolean()),
  /** The schedule's period (minutes): the drift checks are spread over the passes by it (default 5). */
  periodMinutes: z.optional(z.number().check(z.positive())),
});

/** `execution-events`: a cluster-update execution ended (Step Functions' status change, on the default bus). */
export const ExecutionEndedPass = z.object({
  trigger: z.literal('execution'),
  execution: z.object({ name: z.string(), status: z.string(), arn: z.optional(z.string()) }),
});

/**
 * `execution-status`: a cluster-update execution started or ended: the `detail` of Step Functions' "Execution Status
 * Change" event as it is (`input` and `output` are the execution's JSON as text; absent or null when not included).
 */
export const ExecutionStatusChange = z.looseObject({
  name: z.string().check(z.minLength(1)),
  status: z.string().check(z.minLength(1)),
  executionArn: z.optional(z.string()),
  input: z.nullish(z.string()),
  output: z.nullish(z.string()),
  error: z.nullish(z.string()),
  cause: z.nullish(z.string()),
});
export type ExecutionStatusChange = z.infer<typeof ExecutionStatusChange>;

/** The statuses of a cluster-update execution the `execution-status` rule matches. */
export const REPORTED_EXECUTION_STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'] as const;

/** `push-events`: the webhook accepted a push (PushAccepted); the pass starts the clusters that follow the ref. */
export const PushPass = z.object({
  trigger: z.literal('webhook'),
  push: z.object({
    repository: z.string().check(z.minLength(1)),
    ref: z.string().check(z.minLength(1)),
    commit: z.string(),
  }),
});

/** `clm dispatch`: the whole fleet, or some clusters, or only what the registry changed. */
export const CliPass = z.object({
  trigger: z.literal('cli'),
  changesOnly: z.optional(z.boolean()),
  clusters: z.optional(z.array(z.string())),
});

/** Every way a dispatcher pass is asked for. */
export const PassRequest = z.discriminatedUnion('trigger', [ScheduledPass, ExecutionEndedPass, PushPass, CliPass]);
export type PassRequest = z.infer<typeof PassRequest>;

/** One change of a registry item, unmarshalled (lambdas/adapters/registry/registry-stream-records.ts). */
export const RegistryChange = z.object({
  eventName: z.enum(['INSERT', 'MODIFY', 'REMOVE']),
  clusterId: z.string().check(z.minLength(1)),
  newDocument: z.optional(z.record(z.string(), z.unknown())),
  oldDocument: z.optional(z.record(z.string(), z.unknown())),
});

/** `registry-stream`: a batch of our DynamoDB registry's changes (other items of the table are dropped). */
export const RegistryChanges = z.object({ trigger: z.literal('registry'), changes: z.array(RegistryChange) });
export type RegistryChanges = z.infer<typeof RegistryChanges>;

/** The sort key of our DynamoDB registry's items (`CLUSTER#<id>`, `REGISTRY`): the stream filter keeps only these. */
export const REGISTRY_SORT_KEY = 'REGISTRY';

/** The input of a scheduled pass (the schedule's fixed payload). */
export const SCHEDULED_PASS_INPUT = { trigger: 'schedule' } as const satisfies z.infer<typeof ScheduledPass>;

/**
 * Where the fields of an `execution-events` input come from in Step Functions' "Execution Status Change" event
 * (the rule's input transformer).
 */
export const EXECUTION_EVENT_FIELDS = {
  name: '$.detail.name',
  status: '$.detail.status',
  arn: '$.detail.executionArn',
} as const;

/** Where the fields of a `push-events` input come from in a PushAccepted event. */
export const PUSH_EVENT_FIELDS = {
  repository: '$.detail.repository',
  ref: '$.detail.ref',
  commit: '$.detail.commit',
} as const;

/** The statuses of an ended execution the `execution-events` rule matches. */
export const ENDED_EXECUTION_STATUSES = ['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'] as const;
