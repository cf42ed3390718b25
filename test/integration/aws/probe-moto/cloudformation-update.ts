/**
 * CloudFormation stack updates: "No updates are to be performed", and what moto re-evaluates when a parameter, a
 * literal or an ASG property changes.
 */
import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import { UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import type { Stack } from '@aws-sdk/client-cloudformation';
import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import type { Probe } from './probe';
import { record, step, expectError } from './report';
import { nodePoolTemplate, params, outputs, summariseAsgInstances, stackName, userData2 } from './templates';

/** Updates of the node-pool stack (its group may be re-created: `p.asgName` follows it). */
export async function probeStackUpdates(probe: Probe): Promise<void> {
  const { cfn, ec2 } = probe;
  await step('cfn', 'UpdateStack with identical template + parameters', async () => {
    const e = await expectError(() =>
      cfn.send(
        new UpdateStackCommand({
          StackName: stackName,
          TemplateBody: nodePoolTemplate(),
          Parameters: params(probe.baseParams()),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
        }),
      ),
    );
    record(
      'cfn',
      'UpdateStack with identical template + parameters',
      e?.includes('No updates are to be performed.') ? 'same' : 'differs',
      e ?? 'no error (AWS: ValidationError "No updates are to be performed.")',
    );
    const e2 = await expectError(() =>
      cfn.send(
        new UpdateStackCommand({
          StackName: stackName,
          UsePreviousTemplate: true,
          Parameters: Object.keys(probe.baseParams()).map((k) => ({ ParameterKey: k, UsePreviousValue: true })),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
        }),
      ),
    );
    record(
      'cfn',
      'UpdateStack UsePreviousTemplate + all UsePreviousValue',
      e2?.includes('No updates are to be performed.') ? 'same' : 'differs',
      e2 ??
        `no error (AWS: ValidationError "No updates are to be performed."); LT versions now ${JSON.stringify(await probe.ltVersions())}`,
    );
  });

  await step('cfn', 'UpdateStack changing UserData parameter', async () => {
    const r = await cfn.send(
      new UpdateStackCommand({
        StackName: stackName,
        TemplateBody: nodePoolTemplate(),
        Parameters: params({ ...probe.baseParams(), UserData: userData2 }),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const { stack } = await probe.waitStack(stackName);
    const o = outputs(stack);
    const g = await probe.getAsg(o.AsgName);
    const ids = (g?.Instances ?? []).map((i) => i.InstanceId!);
    record(
      'cfn',
      'UpdateStack changing UserData parameter: stack',
      stack.StackStatus === 'UPDATE_COMPLETE' ? 'same' : 'differs',
      `StackId ${r.StackId}; status ${stack.StackStatus}; LastUpdatedTime ${stack.LastUpdatedTime?.toISOString()}; output LatestVersion=${o.LatestVersion}, AsgName=${o.AsgName}`,
    );
    record(
      'cfn',
      'UpdateStack changing UserData parameter: LT versions',
      'info',
      JSON.stringify(await probe.ltVersions()),
    );
    record(
      'asg',
      'after CFN LT update: ASG LaunchTemplate.Version',
      g?.LaunchTemplate?.Version === o.LatestVersion ? 'same' : 'differs',
      `ASG exists=${!!g}; ASG LaunchTemplate ${JSON.stringify(g?.LaunchTemplate)}; LT LatestVersionNumber output ${o.LatestVersion}`,
    );
    const kept = ids.filter((i) => probe.initialIds.includes(i));
    record(
      'asg',
      'after CFN LT update: existing instances kept with old version',
      kept.length === probe.initialIds.length ? 'same' : 'differs',
      `before ${JSON.stringify(probe.initialIds)}; after ${summariseAsgInstances(g)}; kept ${kept.length}/${probe.initialIds.length}`,
    );
    const insts = await probe.asgEc2Instances(probe.asgName);
    const oldStates = (
      await ec2.send(new DescribeInstancesCommand({ InstanceIds: probe.initialIds }))
    ).Reservations?.flatMap((x) => x.Instances ?? []).map((i) => `${i.InstanceId}:${i.State?.Name}`);
    record(
      'ec2',
      'after CFN LT update: EC2 view',
      'info',
      `tag:aws:autoscaling:groupName=${probe.asgName} -> ${insts.map((i) => `${i.InstanceId}:${i.State?.Name}`).join(', ')}; original instances: ${oldStates?.join(', ')}`,
    );
  });

  const imageId = 'UpdateStack changing ImageId parameter';
  await step('cfn', imageId, async () => {
    const update = await updateLaunchTemplate(probe, nodePoolTemplate(), { UserData: userData2, ImageId: probe.amiB });
    const { stack } = update;
    record(
      'cfn',
      'LastUpdatedTime after UpdateStack',
      stack.LastUpdatedTime ? 'same' : 'differs',
      `LastUpdatedTime ${stack.LastUpdatedTime?.toISOString() ?? 'unset'}`,
    );
    await recordGroupFollows(probe, imageId, update);
  });

  const literal = 'UpdateStack changing a literal in the LT (InstanceType), same parameters';
  await step('cfn', literal, async () => {
    const update = await updateLaunchTemplate(probe, nodePoolTemplate('m5.large'), {
      UserData: userData2,
      ImageId: probe.amiB,
    });
    await recordGroupFollows(probe, literal, update);
  });

  await step('cfn', 'UpdateStack changing LT (ImageId) AND an ASG property (ConfigVersion tag)', async () => {
    const before = await probe.getAsg(probe.asgName);
    await cfn.send(
      new UpdateStackCommand({
        StackName: stackName,
        TemplateBody: nodePoolTemplate('m5.large'),
        Parameters: params({ ...probe.baseParams(), UserData: userData2, ImageId: probe.amiA, ConfigVersion: 'c2' }),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
        Tags: [
          { Key: 'clm:cluster', Value: 'probe' },
          { Key: 'clm:node-pool', Value: 'default' },
          { Key: 'clm:added', Value: 'yes' },
        ],
      }),
    );
    const oldGone = await probe.getAsg(probe.asgName);
    const { stack } = await probe.waitStack(stackName);
    const o = outputs(stack);
    const g = await probe.getAsg(o.AsgName);
    const kept = (g?.Instances ?? []).filter((i) =>
      before?.Instances?.some((b) => b.InstanceId === i.InstanceId),
    ).length;
    const oldStates = (
      await ec2.send(new DescribeInstancesCommand({ InstanceIds: before!.Instances!.map((i) => i.InstanceId!) }))
    ).Reservations?.flatMap((x) => x.Instances ?? []).map((i) => `${i.InstanceId}:${i.State?.Name}`);
    const newEc2 = await probe.asgEc2Instances(o.AsgName);
    record(
      'cfn',
      'UpdateStack with new stack Tags (and a parameter change)',
      stack.Tags?.some((t) => t.Key === 'clm:added') ? 'same' : 'differs',
      `Tags now ${JSON.stringify(stack.Tags)}`,
    );
    record(
      'cfn',
      'UpdateStack changing LT (ImageId) AND an ASG property (ConfigVersion tag)',
      g?.LaunchTemplate?.Version === o.LatestVersion && kept === before!.Instances!.length ? 'same' : 'differs',
      `status ${stack.StackStatus}; old ASG name still described: ${!!oldGone}; output LatestVersion=${o.LatestVersion}; AsgName ${probe.asgName} -> ${o.AsgName}; ASG LaunchTemplate ${JSON.stringify(g?.LaunchTemplate)}; kept ${kept}/${before?.Instances?.length} instances; old instances now ${oldStates?.join(', ')}; group now ${summariseAsgInstances(g)}; EC2 images of group: ${JSON.stringify(newEc2.filter((i) => i.State?.Name === 'running').map((i) => i.ImageId))}; ASG tags ${JSON.stringify(g?.Tags?.map((t) => `${t.Key}=${t.Value}`))}`,
    );
    probe.asgName = o.AsgName;
  });
}

/** What an update of the node-pool stack's launch template did: the group before and after, the stack after. */
interface LaunchTemplateUpdate {
  readonly before: AutoScalingGroup | undefined;
  readonly stack: Stack;
  readonly after: AutoScalingGroup | undefined;
}

/** UpdateStack of the node-pool stack with `template` and the base parameters changed by `changed`. */
async function updateLaunchTemplate(
  probe: Probe,
  template: string,
  changed: Record<string, string>,
): Promise<LaunchTemplateUpdate> {
  const before = await probe.getAsg(probe.asgName);
  await probe.cfn.send(
    new UpdateStackCommand({
      StackName: stackName,
      TemplateBody: template,
      Parameters: params({ ...probe.baseParams(), ...changed }),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const { stack } = await probe.waitStack(stackName);
  return { before, stack, after: await probe.getAsg(probe.asgName) };
}

/** Records whether the group follows the launch template's latest version after the update (AWS: it does). */
async function recordGroupFollows(probe: Probe, what: string, { before, stack, after }: LaunchTemplateUpdate) {
  const o = outputs(stack);
  record(
    'cfn',
    what,
    after?.LaunchTemplate?.Version === o.LatestVersion ? 'same' : 'differs',
    `status ${stack.StackStatus}; LT versions ${JSON.stringify(await probe.ltVersions())}; output LatestVersion=${o.LatestVersion}; ASG LaunchTemplate ${JSON.stringify(after?.LaunchTemplate)}; instances before ${summariseAsgInstances(before)} after ${summariseAsgInstances(after)}`,
  );
}
