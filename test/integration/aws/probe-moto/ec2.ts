/**
 * EC2 checks: the account (STS), the default VPC and subnets, the AMIs moto knows, and what it does with
 * an AMI it does not know.
 */
import { CreateStackCommand, DeleteStackCommand } from '@aws-sdk/client-cloudformation';
import {
  DescribeImagesCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  RegisterImageCommand,
} from '@aws-sdk/client-ec2';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import type { Probe } from './probe';
import { record, step, errText, expectError } from './report';
import { nodePoolTemplate, params, outputs } from './templates';

/** The account, the default VPC and its subnets, two usable AMIs (kept in `p` for the stacks). */
export async function probeAccountAndImages(probe: Probe): Promise<void> {
  const { ec2, sts } = probe;
  await step('setup', 'STS GetCallerIdentity', async () => {
    const r = await sts.send(new GetCallerIdentityCommand({}));
    record('setup', 'STS GetCallerIdentity', 'info', `account ${r.Account}, arn ${r.Arn}`);
  });

  await step('ec2', 'default VPC and subnets', async () => {
    const vpcs = await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }));
    probe.vpcId = vpcs.Vpcs![0].VpcId!;
    const subnets = await ec2.send(
      new DescribeSubnetsCommand({
        Filters: [
          { Name: 'vpc-id', Values: [probe.vpcId] },
          { Name: 'default-for-az', Values: ['true'] },
        ],
      }),
    );
    const byAz = new Map<string, string>();
    for (const s of subnets.Subnets ?? [])
      if (!byAz.has(s.AvailabilityZone!)) byAz.set(s.AvailabilityZone!, s.SubnetId!);
    [probe.subnetA, probe.subnetB] = [...byAz.values()];
    record(
      'ec2',
      'default VPC and subnets',
      'same',
      `default VPC ${probe.vpcId} (${vpcs.Vpcs![0].CidrBlock}); default subnets per AZ: ${JSON.stringify(Object.fromEntries(byAz))}`,
    );
  });

  await step('ec2', 'DescribeImages (AMIs moto knows)', async () => {
    const all = await ec2.send(new DescribeImagesCommand({}));
    const amazon = await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }));
    const images = all.Images ?? [];
    const pick = images.filter(
      (i) =>
        i.Architecture === 'x86_64' &&
        i.State === 'available' &&
        String(i.Platform ?? '').toLowerCase() !== 'windows' &&
        /amzn|ubuntu|al20/i.test(i.Name ?? ''),
    );
    probe.amiA = pick[0].ImageId!;
    probe.amiB = pick[1].ImageId!;
    record(
      'ec2',
      'DescribeImages (AMIs moto knows)',
      'info',
      `${images.length} images without filter, ${amazon.Images?.length ?? 0} with Owners=[amazon]; using ${probe.amiA} (${pick[0].Name}) and ${probe.amiB} (${pick[1].Name})`,
    );
    const bogus = await expectError(() => ec2.send(new DescribeImagesCommand({ ImageIds: ['ami-00000000deadbeef0'] })));
    record('ec2', 'DescribeImages unknown id', bogus ? 'same' : 'differs', bogus ?? 'no error');
  });
}

/** A node pool stack with an unknown AMI, and RegisterImage + DescribeImages by name. */
export async function probeUnknownAmi(probe: Probe): Promise<void> {
  const { cfn, ec2 } = probe;
  await step('ec2', 'LT with unknown AMI / RegisterImage', async () => {
    const body = nodePoolTemplate();
    const e = await expectError(() =>
      cfn.send(
        new CreateStackCommand({
          StackName: 'probe-bad-ami',
          TemplateBody: body,
          Parameters: params({ ...probe.baseParams(), ImageId: 'ami-0000000000000dead' }),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
        }),
      ),
    );
    const s = await probe.describeStack('probe-bad-ami').then(
      (x) => x,
      () => undefined,
    );
    const g = s ? await probe.getAsg(outputs(s).AsgName) : undefined;
    const insts = g ? await probe.asgEc2Instances(g.AutoScalingGroupName!) : [];
    record(
      'ec2',
      'node pool stack with an AMI moto does not know',
      e || !insts.length ? 'same' : 'differs',
      `CreateStack: ${e ?? 'accepted'}; status ${s?.StackStatus}; ASG instances ${g?.Instances?.length}; EC2 images ${JSON.stringify(insts.map((i) => i.ImageId))} (AWS: instance launches fail, ASG shows failed activities)`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-bad-ami' })).catch(() => undefined);
    const reg = await ec2
      .send(
        new RegisterImageCommand({
          Name: 'clm-probe-node-ami',
          Architecture: 'x86_64',
          RootDeviceName: '/dev/xvda',
          VirtualizationType: 'hvm',
        }),
      )
      .then((r) => r.ImageId, errText);
    const d = reg?.startsWith('ami-')
      ? await ec2.send(
          new DescribeImagesCommand({ Owners: ['self'], Filters: [{ Name: 'name', Values: ['clm-probe-node-ami'] }] }),
        )
      : undefined;
    record(
      'ec2',
      'RegisterImage + DescribeImages Owners=[self] name filter',
      d?.Images?.length === 1 ? 'same' : 'differs',
      `RegisterImage -> ${reg}; found ${JSON.stringify(d?.Images?.map((i) => `${i.ImageId}:${i.Name}:${i.OwnerId}:${i.State}`))}`,
    );
  });
}
