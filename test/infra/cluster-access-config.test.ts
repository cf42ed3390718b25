import { readClusterAccessConfig } from '../../infra/cluster-access-config';

const none = () => undefined;

describe('readClusterAccessConfig', () => {
  it('defaults to no accounts, no organisation and CLM’s stack name patterns', () => {
    expect(readClusterAccessConfig(none, {})).toEqual({
      clusterAccountIds: [],
      organizationId: undefined,
      externalId: undefined,
      clusterStackNamePatterns: ['nodepool-*', 'kube-*'],
      clmAccountId: undefined,
    });
  });

  it('reads lists as context arrays, JSON or comma-separated environment values; context wins', () => {
    const context: Record<string, unknown> = { clusterAccountIds: ['123456789012', '210987654321'] };
    const config = readClusterAccessConfig((k) => context[k], {
      CLM_CLUSTER_ACCOUNTS: '999999999999',
      CLM_CLUSTER_STACK_PATTERNS: '["nodepool-*", "k8s-*"]',
      CLM_EXTERNAL_ID: 'clm-ext-1',
      CLM_ORGANIZATION_ID: 'o-abcdefghij',
      CLM_ACCOUNT_ID: '111111111111',
    });
    expect(config).toEqual({
      clusterAccountIds: ['123456789012', '210987654321'],
      organizationId: 'o-abcdefghij',
      externalId: 'clm-ext-1',
      clusterStackNamePatterns: ['nodepool-*', 'k8s-*'],
      clmAccountId: '111111111111',
    });
    expect(
      readClusterAccessConfig(none, { CLM_CLUSTER_ACCOUNTS: '123456789012, 123456789012,210987654321' }),
    ).toMatchObject({ clusterAccountIds: ['123456789012', '210987654321'] });
  });

  it('reads the templates’ resource name patterns and shared stacks, and refuses a pattern with a space', () => {
    const config = readClusterAccessConfig(none, {
      CLM_CLUSTER_RESOURCE_PATTERNS: 'e2e-test*,zalando-*-e2e-test,/kubernetes/*',
      CLM_SHARED_STACK_PATTERNS: 'etcd-cluster-*',
    });
    expect(config).toMatchObject({
      clusterResourceNamePatterns: ['e2e-test*', 'zalando-*-e2e-test', '/kubernetes/*'],
      sharedStackNamePatterns: ['etcd-cluster-*'],
    });
    expect(() => readClusterAccessConfig(none, { CLM_CLUSTER_RESOURCE_PATTERNS: 'a b' })).toThrow(
      'clusterResourceNamePatterns (context or CLM_CLUSTER_RESOURCE_PATTERNS): "a b" is not a resource name pattern',
    );
  });

  it.each([
    ['clusterAccountIds', 'CLM_CLUSTER_ACCOUNTS', '1234', 'a 12-digit AWS account id'],
    ['organizationId', 'CLM_ORGANIZATION_ID', 'org-1', 'an AWS Organizations id'],
    ['externalId', 'CLM_EXTERNAL_ID', 'has space', 'an ExternalId'],
    ['clusterStackNamePatterns', 'CLM_CLUSTER_STACK_PATTERNS', 'arn:aws:*', 'a stack name pattern'],
  ])('fails on a bad %s, naming the key, the variable and the value', (key, variable, value, what) => {
    expect(() => readClusterAccessConfig(none, { [variable]: value })).toThrow(
      `${key} (context or ${variable}): ${JSON.stringify(value)} is not ${what}`,
    );
  });
});
