/**
 * The Auto Scaling API on the group CloudFormation made: launch template version, desired capacity, terminate
 * with and without decrement, sizes, instance protection, health and processes.
 */
import {
  DescribeAutoScalingInstancesCommand,
  DescribeScalingActivitiesCommand,
  ResumeProcessesCommand,
  SetDesiredCapacityCommand,
  SetInstanceHealthCommand,
  SetInstanceProtectionCommand,
  SuspendProcessesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import type { Probe } from './probe';
import { record, step, expectError } from './report';
import { summariseAsgInstances } from './templates';

/** The Auto Scaling calls the roll makes, on the node-pool stack's group. */
export async function probeAutoScalingApi(probe: Probe): Promise<void> {
  const { asg, ec2 } = probe;
  await step('asg', 'UpdateAutoScalingGroup LaunchTemplate version (API, not CFN)', async () => {
    const before = await probe.getAsg(probe.asgName);
    const vs = await probe.ltVersions();
    const first = String(vs[0].v);
    await asg.send(
      new UpdateAutoScalingGroupCommand({
        AutoScalingGroupName: probe.asgName,
        LaunchTemplate: { LaunchTemplateId: probe.ltId, Version: first },
      }),
    );
    const mid = await probe.getAsg(probe.asgName);
    const latest = String(vs[vs.length - 1].v);
    await asg.send(
      new UpdateAutoScalingGroupCommand({
        AutoScalingGroupName: probe.asgName,
        LaunchTemplate: { LaunchTemplateId: probe.ltId, Version: latest },
      }),
    );
    const g = await probe.getAsg(probe.asgName);
    const same =
      JSON.stringify(before?.Instances?.map((i) => i.InstanceId)) ===
      JSON.stringify(g?.Instances?.map((i) => i.InstanceId));
    record(
      'asg',
      'UpdateAutoScalingGroup LaunchTemplate version (API, not CFN)',
      same ? 'same' : 'differs',
      `set to v${first}: ASG LT ${JSON.stringify(mid?.LaunchTemplate)}, instances ${summariseAsgInstances(mid)}; set back to v${latest}: ASG LT ${JSON.stringify(g?.LaunchTemplate)}; instances untouched: ${same}`,
    );
  });

  await step('asg', 'SetDesiredCapacity above MaxSize', async () => {
    const e = await expectError(() =>
      asg.send(new SetDesiredCapacityCommand({ AutoScalingGroupName: probe.asgName, DesiredCapacity: 3 })),
    );
    const g = await probe.getAsg(probe.asgName);
    record(
      'asg',
      'SetDesiredCapacity above MaxSize',
      e ? 'same' : 'differs',
      `${e ?? 'accepted (AWS: ValidationError "New SetDesiredCapacity value 3 is above max value 2 for the AutoScalingGroup.")'}; now Max/Desired ${g?.MaxSize}/${g?.DesiredCapacity}, ${g?.Instances?.length} instances`,
    );
    if (!e) await asg.send(new SetDesiredCapacityCommand({ AutoScalingGroupName: probe.asgName, DesiredCapacity: 2 }));
    const r = await probe.getAsg(probe.asgName);
    record(
      'asg',
      'SetDesiredCapacity back to 2 (scale in)',
      r?.Instances?.length === 2 ? 'same' : 'differs',
      `instances ${r?.Instances?.length}; which were removed: newest or oldest? remaining ${JSON.stringify(r?.Instances?.map((i) => i.InstanceId))} of ${JSON.stringify(g?.Instances?.map((i) => i.InstanceId))}`,
    );
  });

  await step('asg', 'UpdateAutoScalingGroup MaxSize 5 + SetDesiredCapacity 3', async () => {
    await asg.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: probe.asgName, MaxSize: 5 }));
    const before = await probe.getAsg(probe.asgName);
    await asg.send(
      new SetDesiredCapacityCommand({ AutoScalingGroupName: probe.asgName, DesiredCapacity: 3, HonorCooldown: false }),
    );
    const g = await probe.getAsg(probe.asgName);
    const added = g?.Instances?.filter((i) => !before?.Instances?.some((b) => b.InstanceId === i.InstanceId));
    const ec2i = await probe.asgEc2Instances(probe.asgName);
    const n = ec2i.find((i) => i.InstanceId === added?.[0]?.InstanceId);
    const vs = await probe.ltVersions();
    const asgV = vs.find((v) => String(v.v) === g?.LaunchTemplate?.Version);
    record(
      'asg',
      'SetDesiredCapacity 3: new instance',
      added?.length === 1 &&
        n?.ImageId === asgV?.image &&
        n?.InstanceType === asgV?.type &&
        added[0].LaunchTemplate?.Version === g?.LaunchTemplate?.Version
        ? 'same'
        : 'differs',
      `desired ${g?.DesiredCapacity}; new instance(s) ${JSON.stringify(added?.map((i) => `${i.InstanceId} reported v${i.LaunchTemplate?.Version}/${i.AvailabilityZone}/${i.LifecycleState}`))}; ASG LT version ${g?.LaunchTemplate?.Version} = ${JSON.stringify(asgV)}; EC2: image ${n?.ImageId}, type ${n?.InstanceType}, tags ${JSON.stringify(n?.Tags?.map((t) => `${t.Key}=${t.Value}`).sort())}`,
    );
  });

  await step('asg', 'TerminateInstanceInAutoScalingGroup ShouldDecrementDesiredCapacity=false', async () => {
    const before = await probe.getAsg(probe.asgName);
    const victim = before!.Instances![0].InstanceId!;
    const r = await asg.send(
      new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: false }),
    );
    const g = await probe.getAsg(probe.asgName);
    const ids = g?.Instances?.map((i) => i.InstanceId) ?? [];
    const replaced = ids.length === before!.Instances!.length && !ids.includes(victim);
    const st = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [victim] }))).Reservations?.[0]
      ?.Instances?.[0]?.State?.Name;
    record(
      'asg',
      'TerminateInstanceInAutoScalingGroup ShouldDecrementDesiredCapacity=false',
      replaced ? 'same' : 'differs',
      `Activity ${JSON.stringify({ code: r.Activity?.StatusCode, desc: r.Activity?.Description })}; desired ${before?.DesiredCapacity}->${g?.DesiredCapacity}; instances ${before?.Instances?.length}->${ids.length}; victim in group: ${ids.includes(victim)}; victim EC2 state ${st}; group now ${summariseAsgInstances(g)}`,
    );
  });

  await step('asg', 'TerminateInstanceInAutoScalingGroup ShouldDecrementDesiredCapacity=true', async () => {
    const before = await probe.getAsg(probe.asgName);
    const victim = before!.Instances![0].InstanceId!;
    await asg.send(
      new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: true }),
    );
    const g = await probe.getAsg(probe.asgName);
    const st = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [victim] }))).Reservations?.[0]
      ?.Instances?.[0]?.State?.Name;
    record(
      'asg',
      'TerminateInstanceInAutoScalingGroup ShouldDecrementDesiredCapacity=true',
      g?.DesiredCapacity === before!.DesiredCapacity! - 1 && g?.Instances?.length === before!.Instances!.length - 1
        ? 'same'
        : 'differs',
      `desired ${before?.DesiredCapacity}->${g?.DesiredCapacity}; instances ${before?.Instances?.length}->${g?.Instances?.length}; victim EC2 state ${st}`,
    );
  });

  await step('asg', 'TerminateInstanceInAutoScalingGroup below MinSize', async () => {
    const before = await probe.getAsg(probe.asgName);
    const victim = before!.Instances![0].InstanceId!;
    const e = await expectError(() =>
      asg.send(
        new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: true }),
      ),
    );
    const g = await probe.getAsg(probe.asgName);
    record(
      'asg',
      'TerminateInstanceInAutoScalingGroup decrement below MinSize',
      e ? 'same' : 'differs',
      `${e ?? 'accepted (AWS: ValidationError "...below min size")'}; min ${g?.MinSize} desired ${before?.DesiredCapacity}->${g?.DesiredCapacity}; instances ${g?.Instances?.length}`,
    );
  });

  await step('asg', 'UpdateAutoScalingGroup MinSize 1', async () => {
    await asg.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: probe.asgName, MinSize: 1 }));
    const g = await probe.getAsg(probe.asgName);
    record(
      'asg',
      'UpdateAutoScalingGroup MinSize 1',
      g?.MinSize === 1 ? 'same' : 'differs',
      `Min/Max/Desired ${g?.MinSize}/${g?.MaxSize}/${g?.DesiredCapacity}; instances ${g?.Instances?.length}`,
    );
    await asg.send(
      new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: probe.asgName, MinSize: 0, DesiredCapacity: 0 }),
    );
    const z = await probe.getAsg(probe.asgName);
    record(
      'asg',
      'UpdateAutoScalingGroup MinSize 0 DesiredCapacity 0',
      z?.Instances?.length === 0 ? 'same' : 'differs',
      `Min/Max/Desired ${z?.MinSize}/${z?.MaxSize}/${z?.DesiredCapacity}; instances ${z?.Instances?.length}`,
    );
    await asg.send(
      new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: probe.asgName, MinSize: 2, DesiredCapacity: 2 }),
    );
    const b = await probe.getAsg(probe.asgName);
    record(
      'asg',
      'UpdateAutoScalingGroup MinSize 2 DesiredCapacity 2 (scale back up)',
      b?.Instances?.length === 2 ? 'same' : 'differs',
      summariseAsgInstances(b),
    );
  });

  await step('asg', 'DescribeAutoScalingInstances', async () => {
    const g = await probe.getAsg(probe.asgName);
    const r = await asg.send(
      new DescribeAutoScalingInstancesCommand({ InstanceIds: g?.Instances?.map((i) => i.InstanceId!) }),
    );
    const all = await asg.send(new DescribeAutoScalingInstancesCommand({}));
    record(
      'asg',
      'DescribeAutoScalingInstances',
      r.AutoScalingInstances?.length === g?.Instances?.length &&
        r.AutoScalingInstances?.every((i) => i.LaunchTemplate?.Version === g?.LaunchTemplate?.Version)
        ? 'same'
        : 'differs',
      `ASG LaunchTemplate.Version ${g?.LaunchTemplate?.Version}; by id: ${JSON.stringify(r.AutoScalingInstances?.map((i) => ({ id: i.InstanceId, group: i.AutoScalingGroupName, az: i.AvailabilityZone, state: i.LifecycleState, health: i.HealthStatus, lt: i.LaunchTemplate?.Version, type: i.InstanceType })))}; without filter: ${all.AutoScalingInstances?.length}`,
    );
  });

  await step(
    'asg',
    'SetInstanceProtection / SetInstanceHealth / Suspend+ResumeProcesses / DescribeScalingActivities',
    async () => {
      const g = await probe.getAsg(probe.asgName);
      const id = g!.Instances![0].InstanceId!;
      await asg.send(
        new SetInstanceProtectionCommand({
          AutoScalingGroupName: probe.asgName,
          InstanceIds: [id],
          ProtectedFromScaleIn: true,
        }),
      );
      const p = await probe.getAsg(probe.asgName);
      record(
        'asg',
        'SetInstanceProtection',
        p?.Instances?.find((i) => i.InstanceId === id)?.ProtectedFromScaleIn === true ? 'same' : 'differs',
        `ProtectedFromScaleIn=${p?.Instances?.find((i) => i.InstanceId === id)?.ProtectedFromScaleIn}`,
      );
      await asg.send(
        new SetInstanceProtectionCommand({
          AutoScalingGroupName: probe.asgName,
          InstanceIds: [id],
          ProtectedFromScaleIn: false,
        }),
      );
      await asg.send(
        new SuspendProcessesCommand({
          AutoScalingGroupName: probe.asgName,
          ScalingProcesses: ['AZRebalance', 'ReplaceUnhealthy'],
        }),
      );
      const s = await probe.getAsg(probe.asgName);
      record(
        'asg',
        'SuspendProcesses',
        s?.SuspendedProcesses?.length === 2 ? 'same' : 'differs',
        JSON.stringify(s?.SuspendedProcesses?.map((x) => x.ProcessName)),
      );
      await asg.send(
        new ResumeProcessesCommand({
          AutoScalingGroupName: probe.asgName,
          ScalingProcesses: ['AZRebalance', 'ReplaceUnhealthy'],
        }),
      );
      await asg.send(
        new SetInstanceHealthCommand({ InstanceId: id, HealthStatus: 'Unhealthy', ShouldRespectGracePeriod: false }),
      );
      const h = await probe.getAsg(probe.asgName);
      record(
        'asg',
        'SetInstanceHealth Unhealthy',
        'info',
        `instance ${id} afterwards: ${JSON.stringify(h?.Instances?.find((i) => i.InstanceId === id) ?? 'gone from group')}; group ${summariseAsgInstances(h)}`,
      );
      await asg.send(new SetInstanceHealthCommand({ InstanceId: id, HealthStatus: 'Healthy' })).catch(() => undefined);
      const acts = await asg.send(new DescribeScalingActivitiesCommand({ AutoScalingGroupName: probe.asgName }));
      record('asg', 'DescribeScalingActivities', 'info', `${acts.Activities?.length ?? 0} activities`);
    },
  );
}
