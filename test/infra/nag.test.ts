// cdk-nag AwsSolutions over both stacks in both account modes: no violation left, and each acknowledged finding
// comes from a written justification.
import { Stack, Validations } from 'aws-cdk-lib';
import type { App } from 'aws-cdk-lib';
import { CLM_JUSTIFICATIONS, ClmNagChecks, withPseudoParameters } from '../../infra/nag';
import { ClmStatefulStack } from '../../infra/stacks/clm-stateful-stack';
import { ClmWorkflowStack } from '../../infra/stacks/clm-workflow-stack';
import { ClmClusterAccessStack } from '../../infra/stacks/clm-cluster-access-stack';
import { CONFIGURED, synthClm, testApp } from './synth';

function violations(app: App, justifications = CLM_JUSTIFICATIONS) {
  app.synth();
  const report = new ClmNagChecks(app, {}, justifications).validateScope(app);
  return report.violations.map(
    (v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath ?? r.resourceLogicalId).join(', ')}`,
  );
}

function acknowledged(app: App): { id: string; reason: string }[] {
  return app.node
    .findAll()
    .flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) => Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({ id, reason }))),
    );
}

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unexplained in same-account mode', () => {
    const { app } = synthClm({
      tokenSecretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-tokens-AbCdEf',
      clusterTokenSecretPrefix: 'clm/clusters/',
    });
    expect(violations(app)).toEqual([]);
  });

  it('finds nothing unexplained in cross-account mode (registry accounts or an organisation)', () => {
    const { app } = synthClm({ assumedRoleName: 'cluster-lifecycle-manager', clusterAccountIds: ['210987654321'] });
    expect(violations(app)).toEqual([]);
    const { app: org } = synthClm({ assumedRoleName: 'cluster-lifecycle-manager', organizationId: 'o-abcdefghij' });
    expect(violations(org)).toEqual([]);
  });

  it('finds nothing unexplained in ClmClusterAccess', () => {
    const app = testApp();
    new ClmClusterAccessStack(app, 'ClmClusterAccess', { clmAccountId: '123456789012', externalId: 'clm-ext-1' });
    expect(violations(app)).toEqual([]);
  });

  it("finds nothing unexplained with the registry in CLM's table (its stream trigger) and an alarm e-mail", () => {
    const { app } = synthClm({ registryUri: 'dynamodb://', alarmEmail: 'ops@example.org' });
    expect(violations(app)).toEqual([]);
  });

  it('finds nothing unexplained when the stacks have a concrete account and region (as `cdk deploy` with credentials synthesizes them)', () => {
    // Arrange: the CDK CLI sets CDK_DEFAULT_ACCOUNT/REGION; infra/app.ts then gives every stack this env.
    const env = { account: '123456789012', region: 'eu-west-1' };
    const app = testApp();
    const stateful = new ClmStatefulStack(app, 'ClmStateful', { env });
    new ClmWorkflowStack(app, 'ClmWorkflow', {
      env,
      table: stateful.table,
      artifactBucket: stateful.artifactBucket,
      ...CONFIGURED,
      registryUri: 'dynamodb://',
      assumedRoleName: 'cluster-lifecycle-manager',
      clusterAccountIds: ['210987654321'],
    });
    new ClmClusterAccessStack(app, 'ClmClusterAccess', { env, clmAccountId: '123456789012', externalId: 'clm-ext-1' });

    // Act / Assert
    expect(violations(app)).toEqual([]);
  });

  it("reads a concrete ARN as its stack's pseudo parameters only where it names that stack's own account and region", () => {
    const stack = new Stack(testApp(), 'S', { env: { account: '123456789012', region: 'eu-west-1' } });
    const own = 'Resource::arn:aws:states:eu-west-1:123456789012:execution:<Machine.Name>:*';
    expect(withPseudoParameters(own, stack)).toBe(
      'Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:<Machine.Name>:*',
    );
    expect(withPseudoParameters('Resource::arn:aws:iam::123456789012:role/x-*', stack)).toBe(
      'Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:role/x-*',
    );
    // Another account or region stays literal, so no justification written for the stack's own resources covers it.
    expect(withPseudoParameters('Resource::arn:aws:states:us-east-1:210987654321:execution:m:*', stack)).toBe(
      'Resource::arn:<AWS::Partition>:states:us-east-1:210987654321:execution:m:*',
    );
    // An environment-agnostic stack's findings are left as they are.
    const agnostic = new Stack(testApp(), 'A');
    expect(withPseudoParameters(own, agnostic)).toBe(own);
  });

  it('still reports wildcards nobody justified', () => {
    const { app } = synthClm();
    const left = violations(
      app,
      CLM_JUSTIFICATIONS.filter((j) => !j.finding.test('Resource::*')),
    );
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((v) => v.startsWith('AwsSolutions-IAM5[Resource::*]'))).toBe(true);
  });

  it('gives every acknowledgement a reason', () => {
    const { app } = synthClm();
    violations(app);
    const acks = acknowledged(app);
    expect(acks.length).toBeGreaterThan(10);
    for (const ack of acks)
      expect({ id: ack.id, reason: ack.reason.length >= 40 }).toEqual({ id: ack.id, reason: true });
  });
});
