/**
 * CloudFormation stack creation: the node-pool stack the later checks work on, short-form YAML tags, and
 * parameters left to their Default.
 */
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  GetTemplateCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import type { Probe } from './probe';
import { record, step, expectError } from './report';
import { nodePoolTemplate, shortForm, params, outputs, stackName, userData2 } from './templates';

/** Creates the node-pool stack (kept in `p`: its group and launch template) and reads it back. */
export async function probeNodePoolStack(probe: Probe): Promise<void> {
  const { cfn } = probe;
  await step('cfn', 'CreateStack node pool (IAM role/profile, SG, LT, ASG)', async () => {
    const tc = Date.now();
    const r = await cfn.send(
      new CreateStackCommand({
        StackName: stackName,
        TemplateBody: nodePoolTemplate(),
        Parameters: params(probe.baseParams()),
        Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM'],
        Tags: [
          { Key: 'clm:cluster', Value: 'probe' },
          { Key: 'clm:node-pool', Value: 'default' },
        ],
        EnableTerminationProtection: true,
      }),
    );
    const callMs = Date.now() - tc;
    const { stack, ms, polls } = await probe.waitStack(stackName);
    record(
      'cfn',
      'CreateStack node pool (IAM role/profile, SG, LT, ASG)',
      stack.StackStatus === 'CREATE_COMPLETE' ? 'same' : 'broken',
      `StackId ${r.StackId}; CreateStack call ${callMs} ms; status ${stack.StackStatus} after ${polls} DescribeStacks poll(s), ${ms} ms (moto creates synchronously inside CreateStack)`,
    );
    const o = outputs(stack);
    probe.asgName = o.AsgName;
    probe.ltId = o.LaunchTemplateId;
    record('cfn', 'DescribeStacks Outputs (Ref/GetAtt)', 'same', JSON.stringify(o));
    record(
      'cfn',
      'DescribeStacks Tags / EnableTerminationProtection / Parameters',
      'same',
      `Tags ${JSON.stringify(stack.Tags)}; EnableTerminationProtection=${stack.EnableTerminationProtection}; Parameters ${JSON.stringify(stack.Parameters?.map((p) => p.ParameterKey))}; CreationTime ${stack.CreationTime?.toISOString()}; LastUpdatedTime ${stack.LastUpdatedTime?.toISOString() ?? 'unset'}`,
    );
    const res = await cfn.send(new DescribeStackResourcesCommand({ StackName: stackName }));
    record(
      'cfn',
      'DescribeStackResources',
      'same',
      JSON.stringify(
        res.StackResources?.map(
          (x) => `${x.LogicalResourceId}:${x.ResourceType}=${x.PhysicalResourceId}[${x.ResourceStatus}]`,
        ),
      ),
    );
    const ev = await cfn.send(new DescribeStackEventsCommand({ StackName: stackName }));
    record(
      'cfn',
      'DescribeStackEvents',
      'info',
      `${ev.StackEvents?.length} events, newest first: ${JSON.stringify(ev.StackEvents?.slice(0, 3).map((e) => `${e.LogicalResourceId}:${e.ResourceStatus}`))}`,
    );
    const tpl = await cfn.send(new GetTemplateCommand({ StackName: stackName }));
    record(
      'cfn',
      'GetTemplate',
      tpl.TemplateBody === nodePoolTemplate() ? 'same' : 'differs',
      `returns the body verbatim: ${tpl.TemplateBody === nodePoolTemplate()}`,
    );
  });
}

/** Short-form YAML tags, and a parameter omitted (Default used) then passed again. */
export async function probeTemplateForms(probe: Probe): Promise<void> {
  const { cfn, region } = probe;
  await step('cfn', 'short-form YAML tags (!Ref !GetAtt !Sub !Base64 !Join !Select !GetAZs)', async () => {
    const body = shortForm.replace('${VPC}', probe.vpcId).replace('${AMI}', probe.amiA);
    await cfn.send(new CreateStackCommand({ StackName: 'probe-short', TemplateBody: body }));
    const { stack } = await probe.waitStack('probe-short');
    record(
      'cfn',
      'short-form YAML tags (!Ref !GetAtt !Sub !Base64 !Join !Select !GetAZs)',
      stack.StackStatus === 'CREATE_COMPLETE' ? 'same' : 'broken',
      `status ${stack.StackStatus}; outputs ${JSON.stringify(outputs(stack))}`,
    );
    const joined = outputs(stack).Joined ?? '';
    record(
      'cfn',
      '!GetAZs region',
      joined.endsWith(`${region}a`) ? 'same' : 'differs',
      `!Select [0, !GetAZs ''] in ${region} -> ${joined.split('-').slice(3).join('-') || joined}`,
    );
    const e = await expectError(() =>
      cfn.send(new UpdateStackCommand({ StackName: 'probe-short', TemplateBody: body })),
    );
    const o = outputs(await probe.describeStack('probe-short'));
    record(
      'cfn',
      'UpdateStack identical body, stack without Parameters',
      e?.includes('No updates') ? 'same' : 'differs',
      `${e ?? 'no error (AWS: ValidationError "No updates are to be performed.")'}; LT Latest output now ${o.Latest}; status ${(await probe.describeStack('probe-short')).StackStatus}`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-short' }));
  });

  await step('cfn', 'parameter omitted (Default used) then passed explicitly', async () => {
    const { ConfigVersion: _omit, ...withoutDefaulted } = probe.baseParams();
    await cfn.send(
      new CreateStackCommand({
        StackName: 'probe-params',
        TemplateBody: nodePoolTemplate(),
        Parameters: params(probe.baseParams()),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const asg0 = outputs(await probe.describeStack('probe-params')).AsgName;
    const e3 = await expectError(() =>
      cfn.send(
        new UpdateStackCommand({
          StackName: 'probe-params',
          TemplateBody: nodePoolTemplate(),
          Parameters: params(withoutDefaulted),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
        }),
      ),
    );
    const s1 = await probe.describeStack('probe-params');
    record(
      'cfn',
      'UpdateStack identical, but a parameter that has a Default omitted',
      e3?.includes('No updates are to be performed.') ? 'same' : 'differs',
      `${e3 ?? 'no error (AWS: ValidationError "No updates are to be performed.")'}; status ${s1.StackStatus}; ASG name unchanged: ${outputs(s1).AsgName === asg0}`,
    );
    await cfn.send(
      new UpdateStackCommand({
        StackName: 'probe-params',
        TemplateBody: nodePoolTemplate(),
        Parameters: params({ ...probe.baseParams(), UserData: userData2 }),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const asg2 = outputs(await probe.describeStack('probe-params')).AsgName;
    record(
      'cfn',
      'next UpdateStack passes that parameter again (same value) + changes UserData',
      asg2 === asg0 ? 'same' : 'differs',
      `ASG ${asg0} -> ${asg2}: moto counts the re-passed parameter as changed, so every resource that Refs it is "modified" (ASG: deleted and re-created under a new name, all instances replaced). Always pass every parameter explicitly.`,
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-params' }));
  });
}
