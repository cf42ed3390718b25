import { MemoryLaunchBudget } from '../../../lambdas/adapters/progress/sharded-launch-budget';
import { DEFAULT_FLEET_SETTINGS, launchLimitsOf } from '../../../lambdas/core/dispatch/fleet-settings';
import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { MemoryFleetStore } from '../../../lambdas/adapters/fleet/memory-fleet-store';
import { createAwsPorts } from '../../../lambdas/runtime/wiring/aws-ports';
import type { ArtifactStore } from '../../../lambdas/ports/artifact-store';
import type { ProgressStore } from '../../../lambdas/ports/progress-store';
import type { Registry } from '../../../lambdas/ports/registry';

const ec2 = mockClient(EC2Client);

const render = (ports: ReturnType<typeof createAwsPorts>, region: string) =>
  ports.templates.render({
    template: { path: 'main/config-defaults.yaml', content: 'image: {{amiID "kube-node" "861068367966"}}' },
    context: { Cluster: { InfrastructureAccount: 'aws:123456789012', Region: region }, Values: {}, NodePool: null },
  });

describe('createAwsPorts (clm provision against AWS)', () => {
  beforeEach(() => {
    ec2.reset();
    ec2.on(DescribeImagesCommand).resolves({ Images: [{ ImageId: 'ami-0a1b' }] });
  });

  it('answers amiID from EC2 in the region of the rendered cluster, before any forCluster call', async () => {
    // Arrange
    const ports = createAwsPorts({
      registry: {} as Registry,
      sources: [],
      progress: {} as ProgressStore,
      artifacts: {} as ArtifactStore,
      fleet: new MemoryFleetStore(),
      launches: new MemoryLaunchBudget(launchLimitsOf(DEFAULT_FLEET_SETTINGS)),
      region: 'eu-central-1',
    });

    // Act
    const rendered = [await render(ports, 'eu-west-1'), await render(ports, 'us-east-1')];

    // Assert
    expect(rendered).toEqual(['image: ami-0a1b', 'image: ami-0a1b']);
    const calls = ec2.commandCalls(DescribeImagesCommand);
    expect(await Promise.all(calls.map((call) => (call.thisValue as EC2Client).config.region()))).toEqual([
      'eu-west-1',
      'us-east-1',
    ]);
    expect(calls[0].args[0].input).toEqual({
      Owners: ['861068367966'],
      Filters: [{ Name: 'name', Values: ['kube-node'] }],
    });
  });
});
