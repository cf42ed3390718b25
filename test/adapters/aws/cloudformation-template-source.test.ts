// Templates over CloudFormation's inline limit: uploaded to the template store and passed by URL, or a ConfigError.
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import 'aws-sdk-client-mock-jest';
import { MAX_INLINE_TEMPLATE_BYTES } from '../../../lambdas/adapters/aws/cloudformation-template-source';
import type { ArtifactStore } from '../../../lambdas/ports/artifact-store';
import { ConfigError } from '../../../lambdas/shared/errors';
import { cfn, deployer, missing, spec } from './cloudformation-deployer-fixtures';

beforeEach(() => cfn.reset());

describe('templateSource, through CloudFormationStackDeployer.deploy', () => {
  it('uploads templates over 51,200 bytes and passes a TemplateURL', async () => {
    // Arrange
    const put = jest.fn(async () => undefined);
    const store: ArtifactStore = {
      put,
      get: async () => undefined,
      putOnce: async () => true,
      getBytes: async () => undefined,
      urlFor: (key) => `https://bucket.s3.eu-central-1.amazonaws.com/${key}`,
    };
    const big = { ...spec, templateBody: `{"Description":"${'x'.repeat(MAX_INLINE_TEMPLATE_BYTES)}"}` };
    cfn.on(DescribeStacksCommand).rejects(missing());
    cfn.on(CreateStackCommand).resolves({});

    // Act
    await deployer({ templateStore: store }).deploy(big);

    // Assert
    expect(put).toHaveBeenCalledTimes(1);
    const [[key]] = put.mock.calls as unknown as [[string, string]];
    expect(key).toMatch(/^templates\/kube-1\/[0-9a-f]{64}\.template$/);
    expect(cfn).toHaveReceivedCommandWith(CreateStackCommand, {
      TemplateURL: `https://bucket.s3.eu-central-1.amazonaws.com/${key}`,
    });
    expect(cfn.commandCalls(CreateStackCommand)[0].args[0].input.TemplateBody).toBeUndefined();
  });

  it('fails with a ConfigError naming the size when a big template has nowhere to go', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).rejects(missing());
    const big = { ...spec, templateBody: 'x'.repeat(MAX_INLINE_TEMPLATE_BYTES + 1) };

    // Act / Assert
    await expect(deployer().deploy(big)).rejects.toThrow(
      new ConfigError(
        `The template of stack kube-1 is 51201 bytes, over CloudFormation's 51200-byte limit for inline templates, and no template bucket is configured`,
      ),
    );
    expect(cfn).toHaveReceivedCommandTimes(CreateStackCommand, 0);
  });
});
