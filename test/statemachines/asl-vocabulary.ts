/** Names Step Functions defines that the ASL files use: the error codes it raises and the child-execution integration. */

export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];
/**
 * A Lambda task that ran out of time: the invocation (ClientExecutionTimeoutException), the function (Sandbox.Timedout)
 * or the state's TimeoutSeconds (States.Timeout). Tasks are reentrant, so these are retried, not fatal.
 */
export const LAMBDA_TIMEOUT_ERRORS = ['Lambda.ClientExecutionTimeoutException', 'Sandbox.Timedout', 'States.Timeout'];
export const SFN_SERVICE_ERRORS = ['StepFunctions.ExecutionLimitExceeded', 'StepFunctions.SdkClientException'];
/** Predefined Step Functions error codes (ASL spec + AWS additions) that may appear in ErrorEquals. */
export const STATES_ERRORS = [
  'States.ALL',
  'States.TaskFailed',
  'States.Timeout',
  'States.HeartbeatTimeout',
  'States.Permissions',
  'States.Runtime',
  'States.DataLimitExceeded',
  'States.ResultPathMatchFailure',
  'States.ParameterPathFailure',
  'States.BranchFailed',
  'States.NoChoiceMatched',
  'States.IntrinsicFailure',
  'States.ExceedToleratedFailureThreshold',
  'States.ItemReaderFailed',
  'States.ResultWriterFailed',
  'States.QueryEvaluationError',
];
export const START_CHILD_SYNC = 'arn:aws:states:::states:startExecution.sync:2';
