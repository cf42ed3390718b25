/**
 * CloudFormation termination protection, stack tags and deletion of the node-pool stack.
 */
import {
  CreateStackCommand,
  DeleteStackCommand,
  ListStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import type { Stack } from '@aws-sdk/client-cloudformation';
import { DescribeInstancesCommand, DescribeLaunchTemplatesCommand } from '@aws-sdk/client-ec2';
import type { Probe } from './probe';
import { record, step, errText, expectError } from './report';
import { nodePoolTemplate, params, outputs, stackName } from './templates';

/** Termination protection, a tags-only update, and deleting the node-pool stack. */
export async function probeProtectionAndDelete(probe: Probe): Promise<void> {
  const { cfn, ec2 } = probe;
  await step('cfn', 'UpdateTerminationProtection toggling', async () => {
    await cfn.send(
      new UpdateTerminationProtectionCommand({ StackName: stackName, EnableTerminationProtection: false }),
    );
    const a = (await probe.describeStack(stackName)).EnableTerminationProtection;
    await cfn.send(new UpdateTerminationProtectionCommand({ StackName: stackName, EnableTerminationProtection: true }));
    const b = (await probe.describeStack(stackName)).EnableTerminationProtection;
    record(
      'cfn',
      'UpdateTerminationProtection toggling',
      a === false && b === true ? 'same' : 'differs',
      `false -> ${a}, true -> ${b}`,
    );
  });

  await step('cfn', 'stack tags update via UpdateStack(UsePreviousTemplate, Tags)', async () => {
    const e = await expectError(() =>
      cfn.send(
        new UpdateStackCommand({
          StackName: stackName,
          UsePreviousTemplate: true,
          Parameters: ['ImageId', 'UserData', 'VpcId', 'SubnetA', 'SubnetB', 'ConfigVersion'].map((k) => ({
            ParameterKey: k,
            UsePreviousValue: true,
          })),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
          Tags: [
            { Key: 'clm:cluster', Value: 'probe' },
            { Key: 'clm:node-pool', Value: 'renamed' },
          ],
        }),
      ),
    );
    const s = await probe.describeStack(stackName);
    record(
      'cfn',
      'stack tags update via UpdateStack(UsePreviousTemplate, Tags)',
      !e && s.Tags?.some((t) => t.Value === 'renamed') ? 'same' : 'differs',
      `${e ?? 'accepted'}; tags now ${JSON.stringify(s.Tags)}`,
    );
  });

  await step('cfn', 'DeleteStack with termination protection on', async () => {
    const e = await expectError(() => cfn.send(new DeleteStackCommand({ StackName: stackName })));
    const s = await probe
      .describeStack(stackName)
      .catch((x) => ({ StackStatus: `describe failed: ${errText(x)}` }) as unknown as Stack);
    record(
      'cfn',
      'DeleteStack with termination protection on',
      e ? 'same' : 'differs',
      `${e ?? 'no error (AWS: ValidationError "Stack [..] cannot be deleted while TerminationProtection is enabled")'}; status now ${s.StackStatus}`,
    );
  });

  await step('cfn', 'DeleteStack', async () => {
    // The stack may already be gone (moto ignores termination protection): recreate it if so.
    if (
      await probe.describeStack(stackName).then(
        () => false,
        () => true,
      )
    ) {
      await cfn.send(
        new CreateStackCommand({
          StackName: stackName,
          TemplateBody: nodePoolTemplate(),
          Parameters: params(probe.baseParams()),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
        }),
      );
      const o = outputs(await probe.describeStack(stackName));
      probe.asgName = o.AsgName;
      probe.ltId = o.LaunchTemplateId;
    }
    const stackId = (await probe.describeStack(stackName)).StackId!;
    const g0 = await probe.getAsg(probe.asgName);
    const ids = g0?.Instances?.map((i) => i.InstanceId!) ?? [];
    await cfn.send(new DeleteStackCommand({ StackName: stackName }));
    const e = await expectError(() => probe.describeStack(stackName));
    record(
      'cfn',
      'DescribeStacks by name after DeleteStack',
      e?.includes('does not exist') ? 'same' : 'differs',
      e ?? `no error; status ${(await probe.describeStack(stackName)).StackStatus}`,
    );
    const byId = await probe.describeStack(stackId).then(
      (x) => `status ${x.StackStatus}, DeletionTime ${x.DeletionTime?.toISOString()}`,
      (x) => errText(x),
    );
    record(
      'cfn',
      'DescribeStacks by StackId after DeleteStack',
      byId.includes('DELETE_COMPLETE') ? 'same' : 'differs',
      byId,
    );
    const listed = await cfn.send(new ListStacksCommand({ StackStatusFilter: ['DELETE_COMPLETE'] }));
    record(
      'cfn',
      'ListStacks DELETE_COMPLETE',
      'info',
      `${listed.StackSummaries?.filter((x) => x.StackName === stackName).length} summary(ies) for ${stackName}`,
    );
    const gone = await probe.getAsg(probe.asgName);
    const st = ids.length
      ? (await ec2.send(new DescribeInstancesCommand({ InstanceIds: ids }))).Reservations?.flatMap(
          (x) => x.Instances ?? [],
        ).map((i) => i.State?.Name)
      : [];
    const lt = await ec2
      .send(new DescribeLaunchTemplatesCommand({ LaunchTemplateIds: [probe.ltId] }))
      .then((r) => (r.LaunchTemplates?.length ? undefined : 'empty result'), errText);
    record(
      'cfn',
      'resources after DeleteStack',
      !gone && st?.every((x) => x === 'terminated') && lt ? 'same' : 'differs',
      `ASG still described: ${!!gone}; its instances' EC2 states: ${JSON.stringify(st)}; DescribeLaunchTemplates: ${lt ?? 'still exists'}`,
    );
    const again = await expectError(() => cfn.send(new DeleteStackCommand({ StackName: stackName })));
    record(
      'cfn',
      'DeleteStack of already-deleted stack',
      again ? 'differs' : 'same',
      again ?? 'no error (AWS: also succeeds silently)',
    );
  });
}
