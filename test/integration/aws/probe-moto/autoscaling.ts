/**
 * Auto Scaling groups made by CloudFormation: the group and its instances, the launch template version each
 * instance reports, and the recipe that makes moto propagate a new version as AWS CloudFormation would.
 */
import {
  TerminateInstanceInAutoScalingGroupCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  DescribeInstanceAttributeCommand,
  DescribeLaunchTemplatesCommand,
  ModifyLaunchTemplateCommand,
} from '@aws-sdk/client-ec2';
import type { Instance } from '@aws-sdk/client-ec2';
import type { Probe } from './probe';
import { record, step } from './report';
import { nodePoolTemplate, params, outputs, summariseAsgInstances, userData1, userData2 } from './templates';

/** The node-pool stack's group, its instances and their EC2 view. */
export async function probeGroupFromStack(probe: Probe): Promise<void> {
  const { ec2 } = probe;
  await step('asg', 'ASG created by CFN: group + instances', async () => {
    const g = await probe.getAsg(probe.asgName);
    probe.initialIds = (g?.Instances ?? []).map((i) => i.InstanceId!);
    record(
      'asg',
      'ASG created by CFN: group',
      g ? 'same' : 'broken',
      `name ${probe.asgName}; LaunchTemplate ${JSON.stringify(g?.LaunchTemplate)}; Min/Max/Desired ${g?.MinSize}/${g?.MaxSize}/${g?.DesiredCapacity}; VPCZoneIdentifier ${g?.VPCZoneIdentifier}; AZs ${g?.AvailabilityZones}; Tags ${JSON.stringify(g?.Tags?.map((t) => `${t.Key}=${t.Value}:${t.PropagateAtLaunch}`))}`,
    );
    const ok =
      (g?.Instances ?? []).length === 2 &&
      g!.Instances!.every((i) => i.LaunchTemplate?.Version && i.AvailabilityZone && i.LifecycleState && i.HealthStatus);
    record('asg', 'DescribeAutoScalingGroups Instances', ok ? 'same' : 'differs', summariseAsgInstances(g));
    const insts = await probe.asgEc2Instances(probe.asgName);
    const i0 = insts[0];
    record(
      'ec2',
      'DescribeInstances tag:aws:autoscaling:groupName',
      insts.length === 2 ? 'same' : 'differs',
      `${insts.length} instances; first: image ${i0?.ImageId}, type ${i0?.InstanceType}, state ${i0?.State?.Name}, subnet ${i0?.SubnetId}, AZ ${i0?.Placement?.AvailabilityZone}, SGs ${JSON.stringify(i0?.SecurityGroups)}, profile ${i0?.IamInstanceProfile?.Arn}, privateIp ${i0?.PrivateIpAddress}, LaunchTime ${i0?.LaunchTime?.toISOString()}; tags ${JSON.stringify(i0?.Tags?.map((t) => `${t.Key}=${t.Value}`).sort())}`,
    );
    if (i0) {
      const ud = await ec2.send(
        new DescribeInstanceAttributeCommand({ InstanceId: i0.InstanceId!, Attribute: 'userData' }),
      );
      const decoded = Buffer.from(ud.UserData?.Value ?? '', 'base64').toString();
      record(
        'ec2',
        'DescribeInstanceAttribute userData',
        decoded === userData1 ? 'same' : 'differs',
        `decoded=${JSON.stringify(decoded)}`,
      );
    }
    const cfnTags = i0?.Tags?.filter((t) => t.Key!.startsWith('aws:cloudformation:')) ?? [];
    record(
      'ec2',
      'instances carry aws:cloudformation:* tags (stack-name/logical-id)',
      cfnTags.length ? 'same' : 'differs',
      cfnTags.length
        ? JSON.stringify(cfnTags)
        : 'none (AWS: ASG and its instances get aws:cloudformation:stack-name/stack-id/logical-id); find the ASG via DescribeStackResources / Outputs instead',
    );
    const g2 = await probe.getAsg(probe.asgName);
    record(
      'asg',
      'ASG carries aws:cloudformation:* tags',
      g2?.Tags?.some((t) => t.Key!.startsWith('aws:cloudformation:')) ? 'same' : 'differs',
      JSON.stringify(g2?.Tags?.map((t) => t.Key)),
    );
    record(
      'ec2',
      'instance IamInstanceProfile from LT',
      i0?.IamInstanceProfile?.Arn ? 'same' : 'differs',
      `IamInstanceProfile ${JSON.stringify(i0?.IamInstanceProfile)}`,
    );
    const subnetsUsed = new Set(insts.map((i) => i.SubnetId));
    record(
      'asg',
      'instances spread over the two subnets/AZs',
      subnetsUsed.size === 2 ? 'same' : 'differs',
      `subnets used: ${[...subnetsUsed].join(', ')}`,
    );
    const lts = await ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateIds: [probe.ltId] }));
    record(
      'ec2',
      'DescribeLaunchTemplates',
      'same',
      JSON.stringify(
        lts.LaunchTemplates?.map((l) => ({
          id: l.LaunchTemplateId,
          name: l.LaunchTemplateName,
          latest: l.LatestVersionNumber,
          def: l.DefaultVersionNumber,
        })),
      ),
    );
  });
}

/** Which launch template version instances report, in the group and in their EC2 tags. */
export async function probeInstanceVersions(probe: Probe): Promise<void> {
  const { asg, ec2 } = probe;
  await step('asg', 'per-instance LaunchTemplate.Version vs ModifyLaunchTemplate DefaultVersion', async () => {
    const g = await probe.getAsg(probe.asgName);
    const vs = await probe.ltVersions();
    const latest = String(vs[vs.length - 1].v);
    const ec2Before = await probe.asgEc2Instances(probe.asgName);
    await ec2.send(new ModifyLaunchTemplateCommand({ LaunchTemplateId: probe.ltId, DefaultVersion: latest }));
    const g2 = await probe.getAsg(probe.asgName);
    const ec2After = await probe.asgEc2Instances(probe.asgName);
    const tagv = (l: Instance[]) =>
      JSON.stringify(
        l
          .filter((i) => i.State?.Name === 'running')
          .map(
            (i) =>
              `${i.InstanceId}:tag-v${i.Tags?.find((t) => t.Key === 'aws:ec2launchtemplate:version')?.Value}/${i.ImageId}/${i.InstanceType}`,
          ),
      );
    record(
      'asg',
      'per-instance LaunchTemplate.Version vs ModifyLaunchTemplate DefaultVersion',
      'differs',
      `ASG LT version ${g?.LaunchTemplate?.Version}, LT default v1 -> Instances[].LaunchTemplate.Version ${JSON.stringify(g?.Instances?.map((i) => i.LaunchTemplate?.Version))}; after ModifyLaunchTemplate DefaultVersion=${latest}: ${JSON.stringify(g2?.Instances?.map((i) => i.LaunchTemplate?.Version))}. EC2 tag aws:ec2launchtemplate:version/ImageId/InstanceType before ${tagv(ec2Before)} after ${tagv(ec2After)}`,
    );
    // With DefaultVersion kept == the ASG's version, a replacement instance's EC2 tag records the version it was launched with.
    const victim = g!.Instances![0].InstanceId!;
    await asg.send(
      new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: false }),
    );
    await ec2.send(new ModifyLaunchTemplateCommand({ LaunchTemplateId: probe.ltId, DefaultVersion: '1' }));
    const g3 = await probe.getAsg(probe.asgName);
    const ec2Final = await probe.asgEc2Instances(probe.asgName);
    record(
      'ec2',
      'EC2 tag aws:ec2launchtemplate:version = LT *default* version at launch time (static)',
      'info',
      `replaced ${victim} while default=v${latest}, then reset default to v1: EC2 ${tagv(ec2Final)}; ASG now reports ${JSON.stringify(g3?.Instances?.map((i) => `${i.InstanceId}:v${i.LaunchTemplate?.Version}`))}`,
    );
  });
}

/** Recipe: after UpdateStack, point the group and the default version at the new version. */
export async function probeVersionRecipe(probe: Probe): Promise<void> {
  const { cfn, asg, ec2 } = probe;
  await step('asg', 'recipe: emulate CFN LT-version propagation on moto', async () => {
    // After UpdateStack, do what AWS CloudFormation would have done to the ASG (point it at the new LT version),
    // and keep the LT's DefaultVersion = latest so moto stamps new instances with the right version tag.
    await cfn.send(
      new CreateStackCommand({
        StackName: 'probe-recipe',
        TemplateBody: nodePoolTemplate(),
        Parameters: params(probe.baseParams()),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    await cfn.send(
      new UpdateStackCommand({
        StackName: 'probe-recipe',
        TemplateBody: nodePoolTemplate(),
        Parameters: params({ ...probe.baseParams(), UserData: userData2, ImageId: probe.amiB }),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const o = outputs(await probe.describeStack('probe-recipe'));
    await ec2.send(
      new ModifyLaunchTemplateCommand({ LaunchTemplateId: o.LaunchTemplateId, DefaultVersion: o.LatestVersion }),
    );
    await asg.send(
      new UpdateAutoScalingGroupCommand({
        AutoScalingGroupName: o.AsgName,
        LaunchTemplate: { LaunchTemplateId: o.LaunchTemplateId, Version: o.LatestVersion },
      }),
    );
    const g = await probe.getAsg(o.AsgName);
    const victim = g!.Instances![0].InstanceId!;
    await asg.send(
      new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: false }),
    );
    const running = (await probe.asgEc2Instances(o.AsgName)).filter((i) => i.State?.Name === 'running');
    const view = await Promise.all(
      running.map(async (i) => {
        const ud = await ec2.send(
          new DescribeInstanceAttributeCommand({ InstanceId: i.InstanceId!, Attribute: 'userData' }),
        );
        return `${i.InstanceId}:tag-v${i.Tags?.find((t) => t.Key === 'aws:ec2launchtemplate:version')?.Value}/${i.ImageId}/${Buffer.from(
          ud.UserData?.Value ?? '',
          'base64',
        )
          .toString()
          .trim()
          .split('\n')
          .pop()}`;
      }),
    );
    const tags = running.map((i) => i.Tags?.find((t) => t.Key === 'aws:ec2launchtemplate:version')?.Value).sort();
    const g2 = await probe.getAsg(o.AsgName);
    record(
      'asg',
      'recipe: emulate CFN LT-version propagation on moto',
      JSON.stringify(tags) === JSON.stringify(['1', o.LatestVersion]) ? 'info' : 'differs',
      `ASG LaunchTemplate.Version ${g2?.LaunchTemplate?.Version}; after replacing one instance, running (EC2 tag version/image/userdata): ${JSON.stringify(view)}; ASG Instances[].LaunchTemplate.Version ${JSON.stringify(g2?.Instances?.map((i) => i.LaunchTemplate?.Version))} (= LT default, useless)`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-recipe' }));
  });
}
