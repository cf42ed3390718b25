import { templatesFactory } from '../../../lambdas/runtime/cloud/templates-factory';
import type { CloudLookups, RenderRequest } from '../../../lambdas/ports/template-engine';

/** Lookups that answer with the account and region they were built for, counting builds and calls. */
function fakeLookups() {
  const built: string[] = [];
  const calls: string[] = [];
  const lookupsFor = (accountId: string, region: string): CloudLookups => {
    built.push(`${accountId}/${region}`);
    return {
      amiId: async (name) => {
        calls.push(`${accountId}/${region} ${name}`);
        return `ami-${accountId}-${region}-${name}`;
      },
      instanceType: async (type) => ({
        instanceType: type,
        vcpu: 2,
        memoryMiB: 8192,
        architecture: 'amd64',
        instanceStorageDevices: 0,
        instanceStorageDeviceSizeGB: 0,
      }),
    };
  };
  return { lookupsFor, built, calls };
}

const request = (content: string, account: string, region: string): RenderRequest => ({
  template: { path: 'main/cluster/cluster.yaml', content },
  context: { Cluster: { InfrastructureAccount: account, Region: region }, Values: {}, NodePool: null },
});

describe('templatesFactory', () => {
  it('asks EC2 in the account and region of the cluster being rendered, caching per account and region', async () => {
    // Arrange
    const { lookupsFor, calls } = fakeLookups();
    const engine = templatesFactory(lookupsFor)();
    const template = 'ami: {{amiID "kube-node" "861068367966"}}';

    // Act
    const rendered = [
      await engine.render(request(template, 'aws:111111111111', 'eu-central-1')),
      await engine.render(request(template, 'aws:222222222222', 'eu-west-1')),
      await engine.render(request(template, 'aws:111111111111', 'eu-central-1')),
    ];

    // Assert
    expect(rendered).toEqual([
      'ami: ami-111111111111-eu-central-1-kube-node',
      'ami: ami-222222222222-eu-west-1-kube-node',
      'ami: ami-111111111111-eu-central-1-kube-node',
    ]);
    expect(calls).toEqual(['111111111111/eu-central-1 kube-node', '222222222222/eu-west-1 kube-node']);
  });

  it('builds no lookups for templates that use none', async () => {
    // Arrange
    const { lookupsFor, built } = fakeLookups();
    const engine = templatesFactory(lookupsFor)();

    // Act
    const rendered = await engine.render(request('region: {{Cluster.Region}}', 'aws:111111111111', 'eu-central-1'));

    // Assert
    expect(rendered).toBe('region: eu-central-1');
    expect(built).toEqual([]);
  });
});
