import { lambdaEnvironment } from '../../../lambdas/runtime/lambda/environment';

describe('lambdaEnvironment', () => {
  it('reads region, endpoint, assumed role, stack role and secret; empty values count as unset', () => {
    // Arrange
    const env = {
      AWS_REGION: 'eu-west-1',
      CLM_AWS_ENDPOINT: '',
      AWS_ENDPOINT_URL: 'http://127.0.0.1:5000',
      CLM_ASSUMED_ROLE: '',
      CLM_STACK_ROLE_ARN: 'arn:aws:iam::123456789012:role/stack',
      CLM_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:t',
    };

    // Act
    const settings = lambdaEnvironment(env);

    // Assert
    expect({ ...settings, required: undefined }).toEqual({
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:5000',
      stackRoleArn: 'arn:aws:iam::123456789012:role/stack',
      secretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:t',
      required: undefined,
    });
  });

  it('prefers CLM_AWS_ENDPOINT over AWS_ENDPOINT_URL', () => {
    expect(lambdaEnvironment({ CLM_AWS_ENDPOINT: 'http://a', AWS_ENDPOINT_URL: 'http://b' }).endpoint).toBe('http://a');
  });

  it('names a required variable that is missing, and where it comes from', () => {
    // Arrange
    const settings = lambdaEnvironment({ CLM_TABLE_NAME: 'clm', CLM_REGISTRY: '' });

    // Act
    const read = () => settings.required('CLM_REGISTRY');

    // Assert
    expect(settings.required('CLM_TABLE_NAME')).toBe('clm');
    expect(read).toThrow(
      'environment variable CLM_REGISTRY is not set; the CDK app sets it (infra/task-environment.ts)',
    );
  });
});
