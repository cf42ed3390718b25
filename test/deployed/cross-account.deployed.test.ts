// The cross-account path on the emulator: ClmClusterAccess deployed with a second account's keys (`cdk bootstrap` and
// `cdk deploy ClmClusterAccess`, as docs/deploying-into-your-organisation.md says), then entered from the CLM account
// the way CLM's tasks enter a cluster account: its access role assumed with the ExternalId, checked against the
// account, and a cluster stack created through the account's stack role.
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { DEFAULT_ACCESS_ROLE_NAME } from '../../infra/stacks/clm-cluster-access-stack';
import { createAccountClients } from '../../lambdas/adapters/aws/aws-clients';
import { eventually } from '../integration/support/eventually';
import { deployApp, output } from './support/deploy-app';
import {
  CLM_ACCOUNT,
  CLUSTER_ACCOUNT,
  deployedEnvironment,
  emulatorClients,
  REGION,
} from './support/deployed-environment';

const env = deployedEnvironment();
const EXTERNAL_ID = 'clm-deployed-tier';

describe('ClmClusterAccess on MiniStack', () => {
  it('deploys ClmClusterAccess into a second account; from the CLM account its role is assumed with the ExternalId', async () => {
    // Arrange: the second account's environment and stack, as `cdk deploy ClmClusterAccess` with that account's keys
    const access = await deployApp({
      endpoint: env.endpoint,
      stateDir: env.stateDir,
      account: CLUSTER_ACCOUNT,
      name: 'access',
      stacks: ['ClmClusterAccess'],
      context: { clmAccountId: CLM_ACCOUNT, externalId: EXTERNAL_ID },
    });
    const stackRole = output(access, 'ClmClusterAccess', 'StackRoleArn');
    expect(output(access, 'ClmClusterAccess', 'AccessRoleArn')).toBe(
      `arn:aws:iam::${CLUSTER_ACCOUNT}:role/${DEFAULT_ACCESS_ROLE_NAME}`,
    );

    // Act: CLM's own path into a cluster account (the clients its tasks build with CLM_ASSUMED_ROLE/CLM_EXTERNAL_ID):
    // the CLM account's credentials assume the role with the ExternalId, checked against the account
    const cluster = createAccountClients({
      region: REGION,
      endpoint: env.endpoint,
      credentials: { accessKeyId: CLM_ACCOUNT, secretAccessKey: 'test' },
      accountId: CLUSTER_ACCOUNT,
      assumedRole: DEFAULT_ACCESS_ROLE_NAME,
      externalId: EXTERNAL_ID,
    });
    const identity = await cluster.sts.send(new GetCallerIdentityCommand({}));
    await cluster.cloudFormation.send(
      new CreateStackCommand({
        StackName: 'kube-cross-account',
        RoleARN: stackRole,
        TemplateBody: JSON.stringify({ Resources: { Topic: { Type: 'AWS::SNS::Topic' } } }),
      }),
    );

    // Assert: the session is the role in the second account, and the stack is there, run by its stack role
    expect(identity).toEqual(
      expect.objectContaining({
        Account: CLUSTER_ACCOUNT,
        Arn: expect.stringMatching(
          new RegExp(`^arn:aws:sts::${CLUSTER_ACCOUNT}:assumed-role/${DEFAULT_ACCESS_ROLE_NAME}/`),
        ),
      }),
    );
    const there = emulatorClients(env.endpoint, CLUSTER_ACCOUNT);
    const stack = await eventually('the stack in the second account', async () => {
      const found = (await there.cloudFormation.send(new DescribeStacksCommand({ StackName: 'kube-cross-account' })))
        .Stacks?.[0];
      return found?.StackStatus === 'CREATE_COMPLETE' ? found : undefined;
    });
    // (MiniStack does not report a stack's RoleARN in DescribeStacks; CreateStack accepted the account's stack role)
    expect(stack!.StackId).toMatch(
      new RegExp(`^arn:aws:cloudformation:${REGION}:${CLUSTER_ACCOUNT}:stack/kube-cross-account/`),
    );
    const own = (await emulatorClients(env.endpoint).cloudFormation.send(new DescribeStacksCommand({}))).Stacks ?? [];
    expect(own.map((s) => s.StackName)).not.toContain('kube-cross-account');
  });
});
