// Stands in for `@aws-sdk/client-lambda` and `@aws-sdk/credential-providers` in the Lambda bundles
// (TASK_BUNDLING.alias in infra/constructs/task-function.ts). aws-local-stepfunctions imports them to invoke a Task
// state's Lambda function when no local handler is given; the in-process runner (runtime/local/asl-runner.ts), which
// the tasks that rehearse an update carry, gives a local handler for every task, so nothing is ever invoked. Neither
// package is in the SDK layer. Reaching one anyway is a bug, and says so.
'use strict';

const refuse = (what) => {
  throw new Error(
    `${what}: a Task state without a local handler reached Lambda's Invoke inside a Lambda bundle (runtime/local/asl-runner.ts gives one for every task)`,
  );
};

class LambdaClient {
  constructor() {
    refuse('LambdaClient');
  }
}
class InvokeCommand {
  constructor() {
    refuse('InvokeCommand');
  }
}

module.exports = {
  LambdaClient,
  InvokeCommand,
  fromCognitoIdentityPool: () => refuse('fromCognitoIdentityPool'),
};
