// The Lambda SDK layer's EC2 client (infra/sdk-layer/build-sdk-layer.ts: only the calls of ec2-api.ts, its schemas
// rewritten so the unused ones drop out) under CLM's real EC2 adapters, against moto's EC2: every adapter that takes
// EC2 values through ec2-api.ts gets the layer's client here, exactly as a deployed task does. The set-up (stacks,
// volumes, the expected answers) uses the full package from node_modules.
import '../support/sdk-layer-ec2-mock'; // first: the adapters below get the layer's EC2 client
import * as full from '@aws-sdk/client-ec2';
import { createAwsClients, type AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { AsgNodePoolBackend } from '../../../lambdas/adapters/aws/asg-node-pool-backend';
import { AwsValuesProvider } from '../../../lambdas/adapters/aws/aws-values-provider';
import { CloudFormationStackDeployer } from '../../../lambdas/adapters/aws/cloudformation-stack-deployer';
import * as layerEc2 from '../../../lambdas/adapters/aws/ec2-api';
import { Ec2CloudLookups } from '../../../lambdas/adapters/aws/ec2-cloud-lookups';
import { Ec2ClusterLeftovers } from '../../../lambdas/adapters/aws/ec2-cluster-leftovers';
import { S3ArtifactStore } from '../../../lambdas/adapters/aws/s3-artifact-store';
import type { ClusterRef } from '../../../lambdas/ports/node-pool-backend';
import { testCluster } from '../../support/test-cluster';
import { motoEndpoint, MOTO_CREDENTIALS, REGION, resetMoto } from '../support/environment';
import { EXAMPLE_CLUSTER, exampleConfigForIntegration, motoValues, renderExample } from '../support/example-config';

const endpoint = motoEndpoint();
const MAIN = 'kube-test';
const WORKER = 'nodepool-default-worker-aws-123456789012-eu-central-1-kube-test';
const cluster: ClusterRef = {
  id: EXAMPLE_CLUSTER,
  name: EXAMPLE_CLUSTER,
  region: REGION,
  infrastructureAccount: 'aws:123456789012',
};
let admin: AwsClients;
let ec2: layerEc2.EC2Client;

beforeAll(async () => {
  await resetMoto(endpoint);
  admin = createAwsClients({ region: REGION, endpoint: endpoint, credentials: MOTO_CREDENTIALS });
  ec2 = new layerEc2.EC2Client({ region: REGION, endpoint: endpoint, credentials: MOTO_CREDENTIALS });
});

afterAll(() => {
  admin?.cloudFormation.destroy();
  ec2?.destroy();
});

describe("the SDK layer's EC2 client under the EC2 adapters, on moto", () => {
  it('is the layer subset, not the package', () => {
    expect(Object.keys(layerEc2).length).toBeLessThan(50);
    expect(layerEc2.EC2Client).not.toBe(full.EC2Client);
  });

  it('reads the VPC, its subnets and the instance type facts the templates get', async () => {
    const values = await new AwsValuesProvider(ec2, new Ec2CloudLookups(ec2)).clusterValues(
      testCluster({ configItems: {}, nodePools: [] }),
    );
    const [vpc] = (
      await admin.ec2.send(new full.DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }))
    ).Vpcs!;
    const subnets = (
      await admin.ec2.send(new full.DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpc.VpcId!] }] }))
    ).Subnets!;
    expect(values.vpc_id).toBe(vpc.VpcId);
    expect(values.vpc_ipv4_cidr).toBe(vpc.CidrBlock);
    expect(values.availability_zones).toEqual([...new Set(subnets.map((s) => s.AvailabilityZone!))].sort());
    const type = await new Ec2CloudLookups(ec2).instanceType('m6i.large');
    expect(type).toMatchObject({ instanceType: 'm6i.large', vcpu: 2, memoryMiB: 8192, architecture: 'amd64' });
  });

  it("reads a node pool's Auto Scaling group and instances (DescribeInstances, DescribeLaunchTemplateVersions)", async () => {
    const store = new S3ArtifactStore(admin.s3, {
      bucket: 'clm-int-layer',
      region: REGION,
      endpoint: endpoint,
      createBucketIfMissing: true,
    });
    const deployer = new CloudFormationStackDeployer(admin.cloudFormation, { templateStore: store });
    const rendered = renderExample(exampleConfigForIntegration(), await motoValues(admin.ec2));
    const tags = { 'kubernetes.io/cluster/kube-test': 'owned' };
    for (const name of [MAIN, WORKER]) {
      await deployer.deploy({ name, templateBody: rendered.stacks[name]!, tags });
      expect((await deployer.describe(name))!.status).toBe('CREATE_COMPLETE'); // moto finishes inside the call
    }
    const pool = (await new AsgNodePoolBackend(admin.autoScaling, ec2).getPool(cluster, 'default-worker'))!;
    expect(pool.instances.map((i) => [i.lifecycleState, i.outdated, i.launchTemplateVersion, i.instanceType])).toEqual([
      ['InService', false, '1', 'm6i.large'],
      ['InService', false, '1', 'm6i.large'],
    ]);
  });

  it('finds a volume the cluster left behind and deletes it', async () => {
    const zone = (await admin.ec2.send(new full.DescribeAvailabilityZonesCommand({}))).AvailabilityZones![0].ZoneName!;
    const volume = await admin.ec2.send(
      new full.CreateVolumeCommand({
        AvailabilityZone: zone,
        Size: 1,
        TagSpecifications: [
          { ResourceType: 'volume', Tags: [{ Key: 'kubernetes.io/cluster/kube-layer', Value: 'owned' }] },
        ],
      }),
    );
    const leftovers = new Ec2ClusterLeftovers(ec2);
    const scan = await leftovers.find('kube-layer');
    const found = scan.found.find((item) => item.id === volume.VolumeId);
    expect(found).toMatchObject({ kind: 'volume' });
    await expect(leftovers.delete(found!)).resolves.toBe('deleted');
    await expect(leftovers.delete(found!)).resolves.toBe('gone'); // the layer's client reads EC2's error answer
    const after = await admin.ec2.send(new full.DescribeVolumesCommand({ VolumeIds: [] }));
    expect(after.Volumes!.map((v) => v.VolumeId)).not.toContain(volume.VolumeId);
  });
});
