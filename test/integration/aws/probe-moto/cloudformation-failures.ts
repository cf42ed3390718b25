/**
 * CloudFormation failure modes: invalid properties, resources that fail, unknown types, missing parameters,
 * malformed templates, ValidateTemplate and missing capabilities.
 */

import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  UpdateStackCommand,
  ValidateTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import type { Probe } from './probe';
import { record, step, errText, expectError } from './report';
import { nodePoolTemplate, params } from './templates';

/** Stacks whose resources are invalid or fail to create (and an update that fails). */
export async function probeCreateFailures(probe: Probe): Promise<void> {
  const { cfn } = probe;
  await step('cfn', 'CreateStack invalid property (SG in non-existent VPC)', async () => {
    const body = `
Resources:
  SG:
    Type: AWS::EC2::SecurityGroup
    Properties: {GroupDescription: bad, VpcId: vpc-0000000000000dead}
`;
    const e = await expectError(() =>
      cfn.send(new CreateStackCommand({ StackName: 'probe-bad-vpc', TemplateBody: body })),
    );
    const s = await probe.describeStack('probe-bad-vpc').then(
      (x) => `${x.StackStatus} (${x.StackStatusReason ?? 'no reason'})`,
      (x) => `describe: ${errText(x)}`,
    );
    const ev = await cfn.send(new DescribeStackEventsCommand({ StackName: 'probe-bad-vpc' })).then(
      (r) =>
        JSON.stringify(
          r.StackEvents?.map((x) => `${x.LogicalResourceId}:${x.ResourceStatus}:${x.ResourceStatusReason ?? ''}`),
        ),
      (x) => errText(x),
    );
    record(
      'cfn',
      'CreateStack invalid property (SG in non-existent VPC)',
      s.includes('ROLLBACK_COMPLETE') ? 'same' : 'differs',
      `CreateStack: ${e ?? 'accepted'}; status ${s}; events ${ev}`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-bad-vpc' })).catch(() => undefined);
  });

  await step('cfn', 'CreateStack ASG with MinSize > MaxSize', async () => {
    const body = nodePoolTemplate().replace("MinSize: '2'", "MinSize: '5'");
    const e = await expectError(() =>
      cfn.send(
        new CreateStackCommand({
          StackName: 'probe-bad-asg',
          TemplateBody: body,
          Parameters: params(probe.baseParams()),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
        }),
      ),
    );
    const s = await probe.describeStack('probe-bad-asg').then(
      (x) => `${x.StackStatus} (${x.StackStatusReason ?? 'no reason'})`,
      (x) => `describe: ${errText(x)}`,
    );
    record(
      'cfn',
      'CreateStack ASG with MinSize > MaxSize',
      s.includes('ROLLBACK_COMPLETE') ? 'same' : 'differs',
      `CreateStack: ${e ?? 'accepted'}; status ${s}`,
    );
    if (s.includes('ROLLBACK_COMPLETE')) {
      const u = await expectError(() =>
        cfn.send(
          new UpdateStackCommand({
            StackName: 'probe-bad-asg',
            TemplateBody: nodePoolTemplate(),
            Parameters: params(probe.baseParams()),
          }),
        ),
      );
      record('cfn', 'UpdateStack on ROLLBACK_COMPLETE stack', u ? 'same' : 'differs', u ?? 'accepted');
    }
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-bad-asg' })).catch(() => undefined);
  });

  await step('cfn', 'CreateStack whose resource creation throws (ASG -> non-existent LT)', async () => {
    const body = `
Resources:
  ASG:
    Type: AWS::AutoScaling::AutoScalingGroup
    Properties:
      LaunchTemplate: {LaunchTemplateId: lt-0000000000000dead, Version: '1'}
      MinSize: '1'
      MaxSize: '1'
      VPCZoneIdentifier: ['${probe.subnetA}']
`;
    const e = await expectError(() =>
      cfn.send(new CreateStackCommand({ StackName: 'probe-throws', TemplateBody: body })),
    );
    const s = await probe.describeStack('probe-throws').then(
      (x) => `${x.StackStatus} (${x.StackStatusReason ?? 'no reason'})`,
      (x) => `describe: ${errText(x)}`,
    );
    record(
      'cfn',
      'CreateStack whose resource creation throws (ASG -> non-existent LT)',
      s.includes('ROLLBACK_COMPLETE') ? 'same' : 'differs',
      `CreateStack: ${e ?? 'accepted'}; status ${s}`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-throws' })).catch(() => undefined);

    const good =
      'Resources:\n  SG:\n    Type: AWS::EC2::SecurityGroup\n    Properties: {GroupDescription: ok, VpcId: ' +
      probe.vpcId +
      '}\n';
    await cfn.send(new CreateStackCommand({ StackName: 'probe-update-throws', TemplateBody: good }));
    const ue = await expectError(() =>
      cfn.send(
        new UpdateStackCommand({
          StackName: 'probe-update-throws',
          TemplateBody: good + body.replace('Resources:\n', ''),
        }),
      ),
    );
    const us = await probe.describeStack('probe-update-throws').then(
      (x) => `${x.StackStatus} (${x.StackStatusReason ?? 'no reason'})`,
      (x) => `describe: ${errText(x)}`,
    );
    record(
      'cfn',
      'UpdateStack whose resource creation throws',
      us.includes('UPDATE_ROLLBACK_COMPLETE') ? 'same' : 'differs',
      `UpdateStack: ${ue ?? 'accepted'}; status ${us}`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-update-throws' })).catch(() => undefined);
  });
}

/** Unknown resource types, missing parameters, malformed YAML, ValidateTemplate, missing capabilities. */
export async function probeTemplateValidation(probe: Probe): Promise<void> {
  const { cfn } = probe;
  await step('cfn', 'CreateStack unknown resource type', async () => {
    const body = 'Resources:\n  X:\n    Type: AWS::Nope::Thing\n    Properties: {A: 1}\n';
    const e = await expectError(() =>
      cfn.send(new CreateStackCommand({ StackName: 'probe-unknown-type', TemplateBody: body })),
    );
    const s = await probe.describeStack('probe-unknown-type').then(
      (x) => `${x.StackStatus} (${x.StackStatusReason ?? 'no reason'})`,
      (x) => `describe: ${errText(x)}`,
    );
    record(
      'cfn',
      'CreateStack unknown resource type',
      e ? 'same' : 'differs',
      `CreateStack: ${e ?? 'accepted'}; status ${s} (AWS: ValidationError "Template format error: Unrecognized resource types: [AWS::Nope::Thing]")`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-unknown-type' })).catch(() => undefined);
  });

  await step('cfn', 'CreateStack missing required parameter / malformed YAML / ValidateTemplate', async () => {
    const e1 = await expectError(() =>
      cfn.send(
        new CreateStackCommand({
          StackName: 'probe-missing-param',
          TemplateBody: nodePoolTemplate(),
          Parameters: params({ ImageId: probe.amiA }),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
        }),
      ),
    );
    const s1 = await probe.describeStack('probe-missing-param').then(
      (x) => x.StackStatus,
      () => 'no stack',
    );
    record(
      'cfn',
      'CreateStack missing required parameter',
      e1 ? 'same' : 'differs',
      `${e1 ?? 'accepted'}; stack: ${s1}`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-missing-param' })).catch(() => undefined);
    const e2 = await expectError(() =>
      cfn.send(new CreateStackCommand({ StackName: 'probe-malformed', TemplateBody: 'Resources: [unclosed' })),
    );
    record(
      'cfn',
      'CreateStack malformed YAML',
      e2?.startsWith('ValidationError') ? 'same' : 'differs',
      `${e2 ?? 'accepted'} (AWS: ValidationError "Template format error: YAML not well-formed")`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-malformed' })).catch(() => undefined);
    const v = await cfn
      .send(new ValidateTemplateCommand({ TemplateBody: nodePoolTemplate() }))
      .then(
        (r) =>
          `ok, parameters ${JSON.stringify(r.Parameters?.map((p) => p.ParameterKey))}, capabilities ${JSON.stringify(r.Capabilities)}`,
        errText,
      );
    record(
      'cfn',
      'ValidateTemplate node pool',
      v.startsWith('ok') ? 'same' : 'differs',
      `${v} (moto runs cfn-lint; AWS accepts this template)`,
    );
    const typed = nodePoolTemplate().replace('ImageId: {Type: String}', "ImageId: {Type: 'AWS::EC2::Image::Id'}");
    const vt = await cfn
      .send(new ValidateTemplateCommand({ TemplateBody: typed }))
      .then((r) => `ok, parameters ${JSON.stringify(r.Parameters?.map((p) => p.ParameterKey))}`, errText);
    record(
      'cfn',
      'ValidateTemplate node pool with ImageId typed AWS::EC2::Image::Id',
      vt.startsWith('ok') ? 'same' : 'differs',
      vt,
    );
    const v2 = await expectError(() => cfn.send(new ValidateTemplateCommand({ TemplateBody: 'Resources: [unclosed' })));
    record('cfn', 'ValidateTemplate malformed', v2 ? 'same' : 'differs', v2 ?? 'accepted');
    const e3 = await expectError(() =>
      cfn.send(
        new CreateStackCommand({
          StackName: 'probe-no-caps',
          TemplateBody: nodePoolTemplate(),
          Parameters: params(probe.baseParams()),
        }),
      ),
    );
    record(
      'cfn',
      'CreateStack IAM resources without Capabilities',
      e3 ? 'same' : 'differs',
      e3 ?? 'accepted (AWS: InsufficientCapabilitiesException)',
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-no-caps' })).catch(() => undefined);
  });
}
