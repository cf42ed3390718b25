import {
  DeleteAutoScalingGroupCommand,
  DescribeAutoScalingGroupsCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import { DescribeStackResourcesCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeLaunchTemplatesCommand, ModifyLaunchTemplateCommand } from '@aws-sdk/client-ec2';
import type { AwsClients } from '../../../lambdas/adapters/aws/aws-clients';

/**
 * MOTO-SPECIFIC SHIM, not something our adapters do (test/integration/README.md, "Recipe for outdated-instance /
 * rolling-update tests on moto"): moto's CloudFormation update creates a new launch-template version but leaves the
 * Auto Scaling group on the old one (`Version: !GetAtt LT.LatestVersionNumber` is not re-evaluated). AWS moves the
 * group. After each update, do what AWS CloudFormation would have done: make the latest version the default and point
 * the stack's groups at it. Existing instances keep their launch tag (old version), so they become outdated.
 * Returns the groups it moved.
 */
export async function propagateLaunchTemplateVersions(
  clients: Pick<AwsClients, 'cloudFormation' | 'ec2' | 'autoScaling'>,
  stackName: string,
): Promise<string[]> {
  const resources =
    (await clients.cloudFormation.send(new DescribeStackResourcesCommand({ StackName: stackName }))).StackResources ??
    [];
  const templateIds = resources
    .filter((r) => r.ResourceType === 'AWS::EC2::LaunchTemplate')
    .map((r) => r.PhysicalResourceId!)
    .filter(Boolean);
  const groupNames = resources
    .filter((r) => r.ResourceType === 'AWS::AutoScaling::AutoScalingGroup')
    .map((r) => r.PhysicalResourceId!)
    .filter(Boolean);
  if (templateIds.length === 0 || groupNames.length === 0) return [];
  const templates =
    (await clients.ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateIds: templateIds }))).LaunchTemplates ??
    [];
  const latest = new Map(templates.map((t) => [t.LaunchTemplateId!, String(t.LatestVersionNumber)]));
  for (const template of templates) {
    if (String(template.DefaultVersionNumber) !== String(template.LatestVersionNumber)) {
      await clients.ec2.send(
        new ModifyLaunchTemplateCommand({
          LaunchTemplateId: template.LaunchTemplateId,
          DefaultVersion: String(template.LatestVersionNumber),
        }),
      );
    }
  }
  const moved: string[] = [];
  const groups =
    (await clients.autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: groupNames })))
      .AutoScalingGroups ?? [];
  for (const group of groups) {
    const id = group.LaunchTemplate?.LaunchTemplateId;
    const want = id ? latest.get(id) : undefined;
    if (!id || !want || group.LaunchTemplate?.Version === want) continue;
    await clients.autoScaling.send(
      new UpdateAutoScalingGroupCommand({
        AutoScalingGroupName: group.AutoScalingGroupName,
        LaunchTemplate: { LaunchTemplateId: id, Version: want },
      }),
    );
    moved.push(group.AutoScalingGroupName!);
  }
  return moved;
}

/**
 * MOTO-SPECIFIC SHIM: when a CloudFormation update replaces an Auto Scaling group, moto 5.2.5 sometimes leaves the
 * old group (and its instances) running next to the new one. AWS deletes the replaced resource. Deletes groups of
 * `clusterTag` that look CloudFormation-made (`<stack>-<LogicalId>-<suffix>`) but no live stack references any more.
 * Returns the groups it deleted.
 */
export async function deleteReplacedGroups(
  clients: Pick<AwsClients, 'cloudFormation' | 'autoScaling'>,
  clusterTag: string,
): Promise<string[]> {
  const stacks = ((await clients.cloudFormation.send(new DescribeStacksCommand({}))).Stacks ?? []).filter(
    (s) => s.StackStatus !== 'DELETE_COMPLETE',
  );
  const referenced = new Set<string>();
  for (const stack of stacks) {
    const resources =
      (
        await clients.cloudFormation.send(
          new DescribeStackResourcesCommand({ StackName: stack.StackId ?? stack.StackName }),
        )
      ).StackResources ?? [];
    for (const resource of resources)
      if (resource.ResourceType === 'AWS::AutoScaling::AutoScalingGroup' && resource.PhysicalResourceId)
        referenced.add(resource.PhysicalResourceId);
  }
  const groups =
    (
      await clients.autoScaling.send(
        new DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag-key', Values: [clusterTag] }] }),
      )
    ).AutoScalingGroups ?? [];
  const deleted: string[] = [];
  for (const group of groups) {
    const name = group.AutoScalingGroupName ?? '';
    if (referenced.has(name) || !stacks.some((s) => name.startsWith(`${s.StackName}-`))) continue;
    await clients.autoScaling.send(
      new DeleteAutoScalingGroupCommand({ AutoScalingGroupName: name, ForceDelete: true }),
    );
    deleted.push(name);
  }
  return deleted;
}
