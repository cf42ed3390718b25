import { Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { AslStateMachine } from '../../infra/constructs/asl-state-machine';
import { testApp } from './synth';

describe('AslStateMachine', () => {
  it('refuses to synthesize when a function the ASL names is not given, naming the placeholder', () => {
    const stack = new Stack(testApp(), 'Test');
    const other = new LambdaFunction(stack, 'Other', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline('exports.handler = async () => ({})'),
    });
    expect(
      () =>
        new AslStateMachine(stack, 'Rollout', {
          definition: 'nodePoolRollout',
          functions: new Map([['RollNodePoolTypo', other]]),
        }),
    ).toThrow(
      'statemachines/node-pool-rollout.asl.json: definitionSubstitutions do not match the placeholders (missing: RollNodePoolFunctionArn; not in the file: none)',
    );
  });
});
