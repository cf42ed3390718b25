import { Stack } from 'aws-cdk-lib';
import { AslStateMachine } from '../../infra/constructs/asl-state-machine';
import { testApp } from './synth';

describe('AslStateMachine', () => {
  it('refuses substitutions that do not match the placeholders of the file', () => {
    const stack = new Stack(testApp(), 'Test');
    expect(
      () =>
        new AslStateMachine(stack, 'Rollout', {
          definition: 'nodePoolRollout',
          substitutions: { RollNodePoolFnArn: 'arn:aws:lambda:eu-central-1:123456789012:function:x' },
        }),
    ).toThrow(
      'statemachines/node-pool-rollout.asl.json: definitionSubstitutions do not match the placeholders (missing: RollNodePoolFunctionArn; not in the file: RollNodePoolFnArn)',
    );
  });
});
