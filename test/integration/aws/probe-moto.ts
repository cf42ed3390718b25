/**
 * Probe: what does moto (test/integration/aws/moto.sh) do for the AWS calls the CLM adapters make?
 *
 *   npx tsx test/integration/aws/probe-moto.ts            # starts/stops its own moto server
 *   AWS_ENDPOINT_URL=http://127.0.0.1:PORT npx tsx test/integration/aws/probe-moto.ts
 *   PROBE_JSON=/tmp/findings.json npx tsx ...             # also writes the findings as JSON
 *
 * Every check records what moto did. `same` = behaves like AWS as far as checked,
 * `differs` = works but unlike AWS (adapters/tests must account for it), `broken` = unusable,
 * `info` = a fact. Exit code is 0 unless the probe itself crashed: this is a report, not a test.
 * Not a Jest test (no .test.ts), so `npm test` does not run it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AutoScalingClient,
  DescribeAutoScalingGroupsCommand,
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
import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import {
  CloudFormationClient,
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  ExecuteChangeSetCommand,
  GetTemplateCommand,
  ListStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
  ValidateTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import type { Parameter, Stack } from '@aws-sdk/client-cloudformation';
import {
  DescribeImagesCommand,
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplateVersionsCommand,
  DescribeLaunchTemplatesCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
  ModifyLaunchTemplateCommand,
  RegisterImageCommand,
} from '@aws-sdk/client-ec2';
import type { Instance } from '@aws-sdk/client-ec2';
import { CreateAliasCommand, CreateKeyCommand, DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';

type Verdict = 'same' | 'differs' | 'broken' | 'info';
interface Finding {
  id: string;
  area: string;
  what: string;
  verdict: Verdict;
  detail: string;
}

const findings: Finding[] = [];
let counter = 0;
function record(area: string, what: string, verdict: Verdict, detail: string): void {
  counter += 1;
  const f = { id: `${area}-${String(counter).padStart(2, '0')}`, area, what, verdict, detail };
  findings.push(f);
  console.log(`[${verdict.padEnd(7)}] ${f.id} ${what}: ${detail}`);
}

/** Runs one probe step; a throw is recorded as `broken` (with the error) instead of aborting the probe. */
async function step(area: string, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    record(area, what, 'broken', `threw ${errText(e)}`);
  }
}

function errText(e: unknown): string {
  const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  return `${err.name ?? 'Error'} (HTTP ${err.$metadata?.httpStatusCode ?? '?'}): ${err.message ?? String(e)}`;
}

async function expectError(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    return errText(e);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- moto server
const here = dirname(fileURLToPath(import.meta.url));
let stateDir: string | undefined;
let endpoint = process.env.AWS_ENDPOINT_URL;
if (!endpoint) {
  stateDir = mkdtempSync(join(tmpdir(), 'clm-moto-probe-'));
  const out = execFileSync('bash', [join(here, 'moto.sh'), 'start', stateDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  endpoint = /AWS_ENDPOINT_URL=(\S+)/.exec(out)![1];
}
const region = process.env.PROBE_REGION ?? 'eu-central-1';
const common = { endpoint, region, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } };
const cfn = new CloudFormationClient(common);
const asg = new AutoScalingClient(common);
const ec2 = new EC2Client(common);
const s3 = new S3Client({ ...common, forcePathStyle: true });
const kms = new KMSClient(common);
const sts = new STSClient(common);

// ---------------------------------------------------------------- helpers
async function describeStack(name: string): Promise<Stack> {
  const r = await cfn.send(new DescribeStacksCommand({ StackName: name }));
  return r.Stacks![0];
}

/** Polls like a real adapter would; returns final status and how long it took. */
async function waitStack(name: string, timeoutMs = 30_000): Promise<{ stack: Stack; ms: number; polls: number }> {
  const t0 = Date.now();
  let polls = 0;
  for (;;) {
    polls += 1;
    const stack = await describeStack(name);
    if (!stack.StackStatus!.endsWith('_IN_PROGRESS') || Date.now() - t0 > timeoutMs)
      return { stack, ms: Date.now() - t0, polls };
    await sleep(250);
  }
}

function outputs(stack: Stack): Record<string, string> {
  return Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
}

async function getAsg(name: string): Promise<AutoScalingGroup | undefined> {
  const r = await asg.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [name] }));
  return r.AutoScalingGroups?.[0];
}

async function asgEc2Instances(name: string): Promise<Instance[]> {
  const r = await ec2.send(
    new DescribeInstancesCommand({ Filters: [{ Name: 'tag:aws:autoscaling:groupName', Values: [name] }] }),
  );
  return (r.Reservations ?? []).flatMap((x) => x.Instances ?? []);
}

function summariseAsgInstances(g: AutoScalingGroup | undefined): string {
  return JSON.stringify(
    (g?.Instances ?? []).map((i) => ({
      id: i.InstanceId,
      az: i.AvailabilityZone,
      state: i.LifecycleState,
      health: i.HealthStatus,
      lt: i.LaunchTemplate ? `${i.LaunchTemplate.LaunchTemplateId}@${i.LaunchTemplate.Version}` : undefined,
      type: i.InstanceType,
      protected: i.ProtectedFromScaleIn,
    })),
  );
}

const params = (p: Record<string, string>): Parameter[] =>
  Object.entries(p).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }));

// The node-pool template, long-form intrinsics (JSON-compatible YAML), as the brief describes.
const nodePoolTemplate = (instanceType = 't3.medium') => `
AWSTemplateFormatVersion: '2010-09-09'
Description: CLM probe node pool
Parameters:
  ImageId: {Type: String}
  UserData: {Type: String}
  VpcId: {Type: String}
  SubnetA: {Type: String}
  SubnetB: {Type: String}
  ConfigVersion: {Type: String, Default: 'c1'}
Resources:
  WorkerRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Version: '2012-10-17'
        Statement:
          - Effect: Allow
            Principal: {Service: [ec2.amazonaws.com]}
            Action: ['sts:AssumeRole']
      Path: /
  WorkerProfile:
    Type: AWS::IAM::InstanceProfile
    Properties:
      Path: /
      Roles: [{Ref: WorkerRole}]
  WorkerSG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: probe workers
      VpcId: {Ref: VpcId}
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: 10250, ToPort: 10250, CidrIp: 172.31.0.0/16}
  LT:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateName: {"Fn::Sub": "\${AWS::StackName}-lt"}
      LaunchTemplateData:
        ImageId: {Ref: ImageId}
        InstanceType: ${instanceType}
        UserData: {"Fn::Base64": {Ref: UserData}}
        IamInstanceProfile: {Arn: {"Fn::GetAtt": [WorkerProfile, Arn]}}
        SecurityGroupIds: [{"Fn::GetAtt": [WorkerSG, GroupId]}]
  ASG:
    Type: AWS::AutoScaling::AutoScalingGroup
    Properties:
      LaunchTemplate:
        LaunchTemplateId: {Ref: LT}
        Version: {"Fn::GetAtt": [LT, LatestVersionNumber]}
      MinSize: '2'
      MaxSize: '2'
      DesiredCapacity: '2'
      VPCZoneIdentifier: [{Ref: SubnetA}, {Ref: SubnetB}]
      Tags:
        - {Key: Name, Value: {"Fn::Sub": "\${AWS::StackName}-worker"}, PropagateAtLaunch: true}
        - {Key: kubernetes.io/cluster/probe, Value: owned, PropagateAtLaunch: true}
        - {Key: not-propagated, Value: x, PropagateAtLaunch: false}
        - {Key: clm:config-version, Value: {Ref: ConfigVersion}, PropagateAtLaunch: true}
Outputs:
  AsgName: {Value: {Ref: ASG}}
  LaunchTemplateId: {Value: {Ref: LT}}
  LatestVersion: {Value: {"Fn::GetAtt": [LT, LatestVersionNumber]}}
  DefaultVersion: {Value: {"Fn::GetAtt": [LT, DefaultVersionNumber]}}
  SecurityGroupId: {Value: {"Fn::GetAtt": [WorkerSG, GroupId]}}
  RoleArn: {Value: {"Fn::GetAtt": [WorkerRole, Arn]}}
  ProfileArn: {Value: {"Fn::GetAtt": [WorkerProfile, Arn]}}
  ProfileName: {Value: {Ref: WorkerProfile}}
`;

// ---------------------------------------------------------------- probe
const t0 = Date.now();
let vpcId = '';
let subnetA = '';
let subnetB = '';
let amiA = '';
let amiB = '';

await step('setup', 'STS GetCallerIdentity', async () => {
  const r = await sts.send(new GetCallerIdentityCommand({}));
  record('setup', 'STS GetCallerIdentity', 'info', `account ${r.Account}, arn ${r.Arn}`);
});

await step('ec2', 'default VPC and subnets', async () => {
  const vpcs = await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }));
  vpcId = vpcs.Vpcs![0].VpcId!;
  const subnets = await ec2.send(
    new DescribeSubnetsCommand({
      Filters: [
        { Name: 'vpc-id', Values: [vpcId] },
        { Name: 'default-for-az', Values: ['true'] },
      ],
    }),
  );
  const byAz = new Map<string, string>();
  for (const s of subnets.Subnets ?? []) if (!byAz.has(s.AvailabilityZone!)) byAz.set(s.AvailabilityZone!, s.SubnetId!);
  [subnetA, subnetB] = [...byAz.values()];
  record(
    'ec2',
    'default VPC and subnets',
    'same',
    `default VPC ${vpcId} (${vpcs.Vpcs![0].CidrBlock}); default subnets per AZ: ${JSON.stringify(Object.fromEntries(byAz))}`,
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
  amiA = pick[0].ImageId!;
  amiB = pick[1].ImageId!;
  record(
    'ec2',
    'DescribeImages (AMIs moto knows)',
    'info',
    `${images.length} images without filter, ${amazon.Images?.length ?? 0} with Owners=[amazon]; using ${amiA} (${pick[0].Name}) and ${amiB} (${pick[1].Name})`,
  );
  const bogus = await expectError(() => ec2.send(new DescribeImagesCommand({ ImageIds: ['ami-00000000deadbeef0'] })));
  record('ec2', 'DescribeImages unknown id', bogus ? 'same' : 'differs', bogus ?? 'no error');
});

// ---- CloudFormation create
const stackName = 'probe-pool';
const userData1 = '#!/bin/bash\necho v1\n';
const userData2 = '#!/bin/bash\necho v2\n';
let asgName = '';
let ltId = '';
const baseParams = () => ({
  ImageId: amiA,
  UserData: userData1,
  VpcId: vpcId,
  SubnetA: subnetA,
  SubnetB: subnetB,
  ConfigVersion: 'c1',
});

await step('cfn', 'CreateStack node pool (IAM role/profile, SG, LT, ASG)', async () => {
  const tc = Date.now();
  const r = await cfn.send(
    new CreateStackCommand({
      StackName: stackName,
      TemplateBody: nodePoolTemplate(),
      Parameters: params(baseParams()),
      Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM'],
      Tags: [
        { Key: 'clm:cluster', Value: 'probe' },
        { Key: 'clm:node-pool', Value: 'default' },
      ],
      EnableTerminationProtection: true,
    }),
  );
  const callMs = Date.now() - tc;
  const { stack, ms, polls } = await waitStack(stackName);
  record(
    'cfn',
    'CreateStack node pool (IAM role/profile, SG, LT, ASG)',
    stack.StackStatus === 'CREATE_COMPLETE' ? 'same' : 'broken',
    `StackId ${r.StackId}; CreateStack call ${callMs} ms; status ${stack.StackStatus} after ${polls} DescribeStacks poll(s), ${ms} ms (moto creates synchronously inside CreateStack)`,
  );
  const o = outputs(stack);
  asgName = o.AsgName;
  ltId = o.LaunchTemplateId;
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

let initialIds: string[] = [];
await step('asg', 'ASG created by CFN: group + instances', async () => {
  const g = await getAsg(asgName);
  initialIds = (g?.Instances ?? []).map((i) => i.InstanceId!);
  record(
    'asg',
    'ASG created by CFN: group',
    g ? 'same' : 'broken',
    `name ${asgName}; LaunchTemplate ${JSON.stringify(g?.LaunchTemplate)}; Min/Max/Desired ${g?.MinSize}/${g?.MaxSize}/${g?.DesiredCapacity}; VPCZoneIdentifier ${g?.VPCZoneIdentifier}; AZs ${g?.AvailabilityZones}; Tags ${JSON.stringify(g?.Tags?.map((t) => `${t.Key}=${t.Value}:${t.PropagateAtLaunch}`))}`,
  );
  const ok =
    (g?.Instances ?? []).length === 2 &&
    g!.Instances!.every((i) => i.LaunchTemplate?.Version && i.AvailabilityZone && i.LifecycleState && i.HealthStatus);
  record('asg', 'DescribeAutoScalingGroups Instances', ok ? 'same' : 'differs', summariseAsgInstances(g));
  const insts = await asgEc2Instances(asgName);
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
  const g2 = await getAsg(asgName);
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
  const lts = await ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateIds: [ltId] }));
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

// ---- CloudFormation update
const ltVersions = async () => {
  const r = await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: ltId }));
  return (r.LaunchTemplateVersions ?? []).map((v) => ({
    v: v.VersionNumber,
    def: v.DefaultVersion,
    image: v.LaunchTemplateData?.ImageId,
    type: v.LaunchTemplateData?.InstanceType,
    ud: Buffer.from(v.LaunchTemplateData?.UserData ?? '', 'base64')
      .toString()
      .trim()
      .split('\n')
      .pop(),
  }));
};

await step('cfn', 'UpdateStack with identical template + parameters', async () => {
  const e = await expectError(() =>
    cfn.send(
      new UpdateStackCommand({
        StackName: stackName,
        TemplateBody: nodePoolTemplate(),
        Parameters: params(baseParams()),
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
        Parameters: Object.keys(baseParams()).map((k) => ({ ParameterKey: k, UsePreviousValue: true })),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    ),
  );
  record(
    'cfn',
    'UpdateStack UsePreviousTemplate + all UsePreviousValue',
    e2?.includes('No updates are to be performed.') ? 'same' : 'differs',
    e2 ??
      `no error (AWS: ValidationError "No updates are to be performed."); LT versions now ${JSON.stringify(await ltVersions())}`,
  );
});

await step('cfn', 'UpdateStack changing UserData parameter', async () => {
  const r = await cfn.send(
    new UpdateStackCommand({
      StackName: stackName,
      TemplateBody: nodePoolTemplate(),
      Parameters: params({ ...baseParams(), UserData: userData2 }),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const { stack } = await waitStack(stackName);
  const o = outputs(stack);
  const g = await getAsg(o.AsgName);
  const ids = (g?.Instances ?? []).map((i) => i.InstanceId!);
  record(
    'cfn',
    'UpdateStack changing UserData parameter: stack',
    stack.StackStatus === 'UPDATE_COMPLETE' ? 'same' : 'differs',
    `StackId ${r.StackId}; status ${stack.StackStatus}; LastUpdatedTime ${stack.LastUpdatedTime?.toISOString()}; output LatestVersion=${o.LatestVersion}, AsgName=${o.AsgName}`,
  );
  record('cfn', 'UpdateStack changing UserData parameter: LT versions', 'info', JSON.stringify(await ltVersions()));
  record(
    'asg',
    'after CFN LT update: ASG LaunchTemplate.Version',
    g?.LaunchTemplate?.Version === o.LatestVersion ? 'same' : 'differs',
    `ASG exists=${!!g}; ASG LaunchTemplate ${JSON.stringify(g?.LaunchTemplate)}; LT LatestVersionNumber output ${o.LatestVersion}`,
  );
  const kept = ids.filter((i) => initialIds.includes(i));
  record(
    'asg',
    'after CFN LT update: existing instances kept with old version',
    kept.length === initialIds.length ? 'same' : 'differs',
    `before ${JSON.stringify(initialIds)}; after ${summariseAsgInstances(g)}; kept ${kept.length}/${initialIds.length}`,
  );
  const insts = await asgEc2Instances(asgName);
  const oldStates = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: initialIds }))).Reservations?.flatMap(
    (x) => x.Instances ?? [],
  ).map((i) => `${i.InstanceId}:${i.State?.Name}`);
  record(
    'ec2',
    'after CFN LT update: EC2 view',
    'info',
    `tag:aws:autoscaling:groupName=${asgName} -> ${insts.map((i) => `${i.InstanceId}:${i.State?.Name}`).join(', ')}; original instances: ${oldStates?.join(', ')}`,
  );
});

await step('cfn', 'UpdateStack changing ImageId parameter', async () => {
  const before = await getAsg(asgName);
  await cfn.send(
    new UpdateStackCommand({
      StackName: stackName,
      TemplateBody: nodePoolTemplate(),
      Parameters: params({ ...baseParams(), UserData: userData2, ImageId: amiB }),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const { stack } = await waitStack(stackName);
  const o = outputs(stack);
  const g = await getAsg(asgName);
  record(
    'cfn',
    'LastUpdatedTime after UpdateStack',
    stack.LastUpdatedTime ? 'same' : 'differs',
    `LastUpdatedTime ${stack.LastUpdatedTime?.toISOString() ?? 'unset'}`,
  );
  record(
    'cfn',
    'UpdateStack changing ImageId parameter',
    g?.LaunchTemplate?.Version === o.LatestVersion ? 'same' : 'differs',
    `status ${stack.StackStatus}; LT versions ${JSON.stringify(await ltVersions())}; output LatestVersion=${o.LatestVersion}; ASG LaunchTemplate ${JSON.stringify(g?.LaunchTemplate)}; instances before ${summariseAsgInstances(before)} after ${summariseAsgInstances(g)}`,
  );
});

await step('cfn', 'UpdateStack changing a literal in the LT (InstanceType), same parameters', async () => {
  const before = await getAsg(asgName);
  await cfn.send(
    new UpdateStackCommand({
      StackName: stackName,
      TemplateBody: nodePoolTemplate('m5.large'),
      Parameters: params({ ...baseParams(), UserData: userData2, ImageId: amiB }),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const { stack } = await waitStack(stackName);
  const o = outputs(stack);
  const g = await getAsg(asgName);
  record(
    'cfn',
    'UpdateStack changing a literal in the LT (InstanceType), same parameters',
    g?.LaunchTemplate?.Version === o.LatestVersion ? 'same' : 'differs',
    `status ${stack.StackStatus}; LT versions ${JSON.stringify(await ltVersions())}; output LatestVersion=${o.LatestVersion}; ASG LaunchTemplate ${JSON.stringify(g?.LaunchTemplate)}; instances before ${summariseAsgInstances(before)} after ${summariseAsgInstances(g)}`,
  );
});

await step('cfn', 'UpdateStack changing LT (ImageId) AND an ASG property (ConfigVersion tag)', async () => {
  const before = await getAsg(asgName);
  await cfn.send(
    new UpdateStackCommand({
      StackName: stackName,
      TemplateBody: nodePoolTemplate('m5.large'),
      Parameters: params({ ...baseParams(), UserData: userData2, ImageId: amiA, ConfigVersion: 'c2' }),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
      Tags: [
        { Key: 'clm:cluster', Value: 'probe' },
        { Key: 'clm:node-pool', Value: 'default' },
        { Key: 'clm:added', Value: 'yes' },
      ],
    }),
  );
  const oldGone = await getAsg(asgName);
  const { stack } = await waitStack(stackName);
  const o = outputs(stack);
  const g = await getAsg(o.AsgName);
  const kept = (g?.Instances ?? []).filter((i) => before?.Instances?.some((b) => b.InstanceId === i.InstanceId)).length;
  const oldStates = (
    await ec2.send(new DescribeInstancesCommand({ InstanceIds: before!.Instances!.map((i) => i.InstanceId!) }))
  ).Reservations?.flatMap((x) => x.Instances ?? []).map((i) => `${i.InstanceId}:${i.State?.Name}`);
  const newEc2 = await asgEc2Instances(o.AsgName);
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
    `status ${stack.StackStatus}; old ASG name still described: ${!!oldGone}; output LatestVersion=${o.LatestVersion}; AsgName ${asgName} -> ${o.AsgName}; ASG LaunchTemplate ${JSON.stringify(g?.LaunchTemplate)}; kept ${kept}/${before?.Instances?.length} instances; old instances now ${oldStates?.join(', ')}; group now ${summariseAsgInstances(g)}; EC2 images of group: ${JSON.stringify(newEc2.filter((i) => i.State?.Name === 'running').map((i) => i.ImageId))}; ASG tags ${JSON.stringify(g?.Tags?.map((t) => `${t.Key}=${t.Value}`))}`,
  );
  asgName = o.AsgName;
});

await step('asg', 'per-instance LaunchTemplate.Version vs ModifyLaunchTemplate DefaultVersion', async () => {
  const g = await getAsg(asgName);
  const vs = await ltVersions();
  const latest = String(vs[vs.length - 1].v);
  const ec2Before = await asgEc2Instances(asgName);
  await ec2.send(new ModifyLaunchTemplateCommand({ LaunchTemplateId: ltId, DefaultVersion: latest }));
  const g2 = await getAsg(asgName);
  const ec2After = await asgEc2Instances(asgName);
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
  await ec2.send(new ModifyLaunchTemplateCommand({ LaunchTemplateId: ltId, DefaultVersion: '1' }));
  const g3 = await getAsg(asgName);
  const ec2Final = await asgEc2Instances(asgName);
  record(
    'ec2',
    'EC2 tag aws:ec2launchtemplate:version = LT *default* version at launch time (static)',
    'info',
    `replaced ${victim} while default=v${latest}, then reset default to v1: EC2 ${tagv(ec2Final)}; ASG now reports ${JSON.stringify(g3?.Instances?.map((i) => `${i.InstanceId}:v${i.LaunchTemplate?.Version}`))}`,
  );
});

// ---- Auto Scaling API on the CFN-made group
await step('asg', 'UpdateAutoScalingGroup LaunchTemplate version (API, not CFN)', async () => {
  const before = await getAsg(asgName);
  const vs = await ltVersions();
  const first = String(vs[0].v);
  await asg.send(
    new UpdateAutoScalingGroupCommand({
      AutoScalingGroupName: asgName,
      LaunchTemplate: { LaunchTemplateId: ltId, Version: first },
    }),
  );
  const mid = await getAsg(asgName);
  const latest = String(vs[vs.length - 1].v);
  await asg.send(
    new UpdateAutoScalingGroupCommand({
      AutoScalingGroupName: asgName,
      LaunchTemplate: { LaunchTemplateId: ltId, Version: latest },
    }),
  );
  const g = await getAsg(asgName);
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
    asg.send(new SetDesiredCapacityCommand({ AutoScalingGroupName: asgName, DesiredCapacity: 3 })),
  );
  const g = await getAsg(asgName);
  record(
    'asg',
    'SetDesiredCapacity above MaxSize',
    e ? 'same' : 'differs',
    `${e ?? 'accepted (AWS: ValidationError "New SetDesiredCapacity value 3 is above max value 2 for the AutoScalingGroup.")'}; now Max/Desired ${g?.MaxSize}/${g?.DesiredCapacity}, ${g?.Instances?.length} instances`,
  );
  if (!e) await asg.send(new SetDesiredCapacityCommand({ AutoScalingGroupName: asgName, DesiredCapacity: 2 }));
  const r = await getAsg(asgName);
  record(
    'asg',
    'SetDesiredCapacity back to 2 (scale in)',
    r?.Instances?.length === 2 ? 'same' : 'differs',
    `instances ${r?.Instances?.length}; which were removed: newest or oldest? remaining ${JSON.stringify(r?.Instances?.map((i) => i.InstanceId))} of ${JSON.stringify(g?.Instances?.map((i) => i.InstanceId))}`,
  );
});

await step('asg', 'UpdateAutoScalingGroup MaxSize 5 + SetDesiredCapacity 3', async () => {
  await asg.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: asgName, MaxSize: 5 }));
  const before = await getAsg(asgName);
  await asg.send(
    new SetDesiredCapacityCommand({ AutoScalingGroupName: asgName, DesiredCapacity: 3, HonorCooldown: false }),
  );
  const g = await getAsg(asgName);
  const added = g?.Instances?.filter((i) => !before?.Instances?.some((b) => b.InstanceId === i.InstanceId));
  const ec2i = await asgEc2Instances(asgName);
  const n = ec2i.find((i) => i.InstanceId === added?.[0]?.InstanceId);
  const vs = await ltVersions();
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
  const before = await getAsg(asgName);
  const victim = before!.Instances![0].InstanceId!;
  const r = await asg.send(
    new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: false }),
  );
  const g = await getAsg(asgName);
  const ids = g?.Instances?.map((i) => i.InstanceId) ?? [];
  const replaced = ids.length === before!.Instances!.length && !ids.includes(victim);
  const st = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [victim] }))).Reservations?.[0]?.Instances?.[0]
    ?.State?.Name;
  record(
    'asg',
    'TerminateInstanceInAutoScalingGroup ShouldDecrementDesiredCapacity=false',
    replaced ? 'same' : 'differs',
    `Activity ${JSON.stringify({ code: r.Activity?.StatusCode, desc: r.Activity?.Description })}; desired ${before?.DesiredCapacity}->${g?.DesiredCapacity}; instances ${before?.Instances?.length}->${ids.length}; victim in group: ${ids.includes(victim)}; victim EC2 state ${st}; group now ${summariseAsgInstances(g)}`,
  );
});

await step('asg', 'TerminateInstanceInAutoScalingGroup ShouldDecrementDesiredCapacity=true', async () => {
  const before = await getAsg(asgName);
  const victim = before!.Instances![0].InstanceId!;
  await asg.send(
    new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: true }),
  );
  const g = await getAsg(asgName);
  const st = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [victim] }))).Reservations?.[0]?.Instances?.[0]
    ?.State?.Name;
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
  const before = await getAsg(asgName);
  const victim = before!.Instances![0].InstanceId!;
  const e = await expectError(() =>
    asg.send(
      new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: true }),
    ),
  );
  const g = await getAsg(asgName);
  record(
    'asg',
    'TerminateInstanceInAutoScalingGroup decrement below MinSize',
    e ? 'same' : 'differs',
    `${e ?? 'accepted (AWS: ValidationError "...below min size")'}; min ${g?.MinSize} desired ${before?.DesiredCapacity}->${g?.DesiredCapacity}; instances ${g?.Instances?.length}`,
  );
});

await step('asg', 'UpdateAutoScalingGroup MinSize 1', async () => {
  await asg.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: asgName, MinSize: 1 }));
  const g = await getAsg(asgName);
  record(
    'asg',
    'UpdateAutoScalingGroup MinSize 1',
    g?.MinSize === 1 ? 'same' : 'differs',
    `Min/Max/Desired ${g?.MinSize}/${g?.MaxSize}/${g?.DesiredCapacity}; instances ${g?.Instances?.length}`,
  );
  await asg.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: asgName, MinSize: 0, DesiredCapacity: 0 }));
  const z = await getAsg(asgName);
  record(
    'asg',
    'UpdateAutoScalingGroup MinSize 0 DesiredCapacity 0',
    z?.Instances?.length === 0 ? 'same' : 'differs',
    `Min/Max/Desired ${z?.MinSize}/${z?.MaxSize}/${z?.DesiredCapacity}; instances ${z?.Instances?.length}`,
  );
  await asg.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: asgName, MinSize: 2, DesiredCapacity: 2 }));
  const b = await getAsg(asgName);
  record(
    'asg',
    'UpdateAutoScalingGroup MinSize 2 DesiredCapacity 2 (scale back up)',
    b?.Instances?.length === 2 ? 'same' : 'differs',
    summariseAsgInstances(b),
  );
});

await step('asg', 'DescribeAutoScalingInstances', async () => {
  const g = await getAsg(asgName);
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
    const g = await getAsg(asgName);
    const id = g!.Instances![0].InstanceId!;
    await asg.send(
      new SetInstanceProtectionCommand({
        AutoScalingGroupName: asgName,
        InstanceIds: [id],
        ProtectedFromScaleIn: true,
      }),
    );
    const p = await getAsg(asgName);
    record(
      'asg',
      'SetInstanceProtection',
      p?.Instances?.find((i) => i.InstanceId === id)?.ProtectedFromScaleIn === true ? 'same' : 'differs',
      `ProtectedFromScaleIn=${p?.Instances?.find((i) => i.InstanceId === id)?.ProtectedFromScaleIn}`,
    );
    await asg.send(
      new SetInstanceProtectionCommand({
        AutoScalingGroupName: asgName,
        InstanceIds: [id],
        ProtectedFromScaleIn: false,
      }),
    );
    await asg.send(
      new SuspendProcessesCommand({
        AutoScalingGroupName: asgName,
        ScalingProcesses: ['AZRebalance', 'ReplaceUnhealthy'],
      }),
    );
    const s = await getAsg(asgName);
    record(
      'asg',
      'SuspendProcesses',
      s?.SuspendedProcesses?.length === 2 ? 'same' : 'differs',
      JSON.stringify(s?.SuspendedProcesses?.map((x) => x.ProcessName)),
    );
    await asg.send(
      new ResumeProcessesCommand({
        AutoScalingGroupName: asgName,
        ScalingProcesses: ['AZRebalance', 'ReplaceUnhealthy'],
      }),
    );
    await asg.send(
      new SetInstanceHealthCommand({ InstanceId: id, HealthStatus: 'Unhealthy', ShouldRespectGracePeriod: false }),
    );
    const h = await getAsg(asgName);
    record(
      'asg',
      'SetInstanceHealth Unhealthy',
      'info',
      `instance ${id} afterwards: ${JSON.stringify(h?.Instances?.find((i) => i.InstanceId === id) ?? 'gone from group')}; group ${summariseAsgInstances(h)}`,
    );
    await asg.send(new SetInstanceHealthCommand({ InstanceId: id, HealthStatus: 'Healthy' })).catch(() => undefined);
    const acts = await asg.send(new DescribeScalingActivitiesCommand({ AutoScalingGroupName: asgName }));
    record('asg', 'DescribeScalingActivities', 'info', `${acts.Activities?.length ?? 0} activities`);
  },
);

// ---- Termination protection, delete
await step('cfn', 'UpdateTerminationProtection toggling', async () => {
  await cfn.send(new UpdateTerminationProtectionCommand({ StackName: stackName, EnableTerminationProtection: false }));
  const a = (await describeStack(stackName)).EnableTerminationProtection;
  await cfn.send(new UpdateTerminationProtectionCommand({ StackName: stackName, EnableTerminationProtection: true }));
  const b = (await describeStack(stackName)).EnableTerminationProtection;
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
  const s = await describeStack(stackName);
  record(
    'cfn',
    'stack tags update via UpdateStack(UsePreviousTemplate, Tags)',
    !e && s.Tags?.some((t) => t.Value === 'renamed') ? 'same' : 'differs',
    `${e ?? 'accepted'}; tags now ${JSON.stringify(s.Tags)}`,
  );
});

await step('cfn', 'DeleteStack with termination protection on', async () => {
  const e = await expectError(() => cfn.send(new DeleteStackCommand({ StackName: stackName })));
  const s = await describeStack(stackName).catch(
    (x) => ({ StackStatus: `describe failed: ${errText(x)}` }) as unknown as Stack,
  );
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
    await describeStack(stackName).then(
      () => false,
      () => true,
    )
  ) {
    await cfn.send(
      new CreateStackCommand({
        StackName: stackName,
        TemplateBody: nodePoolTemplate(),
        Parameters: params(baseParams()),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const o = outputs(await describeStack(stackName));
    asgName = o.AsgName;
    ltId = o.LaunchTemplateId;
  }
  const stackId = (await describeStack(stackName)).StackId!;
  const g0 = await getAsg(asgName);
  const ids = g0?.Instances?.map((i) => i.InstanceId!) ?? [];
  await cfn.send(new DeleteStackCommand({ StackName: stackName }));
  const e = await expectError(() => describeStack(stackName));
  record(
    'cfn',
    'DescribeStacks by name after DeleteStack',
    e?.includes('does not exist') ? 'same' : 'differs',
    e ?? `no error; status ${(await describeStack(stackName)).StackStatus}`,
  );
  const byId = await describeStack(stackId).then(
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
  const gone = await getAsg(asgName);
  const st = ids.length
    ? (await ec2.send(new DescribeInstancesCommand({ InstanceIds: ids }))).Reservations?.flatMap(
        (x) => x.Instances ?? [],
      ).map((i) => i.State?.Name)
    : [];
  const lt = await ec2
    .send(new DescribeLaunchTemplatesCommand({ LaunchTemplateIds: [ltId] }))
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

// ---- short-form YAML tags, no Parameters
const shortForm = `
AWSTemplateFormatVersion: '2010-09-09'
Resources:
  SG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: !Sub '\${AWS::StackName} sg'
      VpcId: '${'${VPC}'}'
  LT:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateData:
        ImageId: '${'${AMI}'}'
        InstanceType: t3.small
        UserData: !Base64 |
          #!/bin/bash
          echo short
        SecurityGroupIds: [!GetAtt SG.GroupId]
Outputs:
  LT: {Value: !Ref LT}
  Latest: {Value: !GetAtt LT.LatestVersionNumber}
  Joined: {Value: !Join ['-', [!Ref 'AWS::Region', !Select [0, !GetAZs '']]]}
`;
await step('cfn', 'short-form YAML tags (!Ref !GetAtt !Sub !Base64 !Join !Select !GetAZs)', async () => {
  const body = shortForm.replace('${VPC}', vpcId).replace('${AMI}', amiA);
  await cfn.send(new CreateStackCommand({ StackName: 'probe-short', TemplateBody: body }));
  const { stack } = await waitStack('probe-short');
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
  const e = await expectError(() => cfn.send(new UpdateStackCommand({ StackName: 'probe-short', TemplateBody: body })));
  const o = outputs(await describeStack('probe-short'));
  record(
    'cfn',
    'UpdateStack identical body, stack without Parameters',
    e?.includes('No updates') ? 'same' : 'differs',
    `${e ?? 'no error (AWS: ValidationError "No updates are to be performed.")'}; LT Latest output now ${o.Latest}; status ${(await describeStack('probe-short')).StackStatus}`,
  );
  await cfn.send(new DeleteStackCommand({ StackName: 'probe-short' }));
});

await step('cfn', 'parameter omitted (Default used) then passed explicitly', async () => {
  const { ConfigVersion: _omit, ...withoutDefaulted } = baseParams();
  await cfn.send(
    new CreateStackCommand({
      StackName: 'probe-params',
      TemplateBody: nodePoolTemplate(),
      Parameters: params(baseParams()),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const asg0 = outputs(await describeStack('probe-params')).AsgName;
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
  const s1 = await describeStack('probe-params');
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
      Parameters: params({ ...baseParams(), UserData: userData2 }),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const asg2 = outputs(await describeStack('probe-params')).AsgName;
  record(
    'cfn',
    'next UpdateStack passes that parameter again (same value) + changes UserData',
    asg2 === asg0 ? 'same' : 'differs',
    `ASG ${asg0} -> ${asg2}: moto counts the re-passed parameter as changed, so every resource that Refs it is "modified" (ASG: deleted and re-created under a new name, all instances replaced). Always pass every parameter explicitly.`,
  );
  await cfn.send(new DeleteStackCommand({ StackName: 'probe-params' }));
});

await step('asg', 'recipe: emulate CFN LT-version propagation on moto', async () => {
  // After UpdateStack, do what AWS CloudFormation would have done to the ASG (point it at the new LT version),
  // and keep the LT's DefaultVersion = latest so moto stamps new instances with the right version tag.
  await cfn.send(
    new CreateStackCommand({
      StackName: 'probe-recipe',
      TemplateBody: nodePoolTemplate(),
      Parameters: params(baseParams()),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  await cfn.send(
    new UpdateStackCommand({
      StackName: 'probe-recipe',
      TemplateBody: nodePoolTemplate(),
      Parameters: params({ ...baseParams(), UserData: userData2, ImageId: amiB }),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const o = outputs(await describeStack('probe-recipe'));
  await ec2.send(
    new ModifyLaunchTemplateCommand({ LaunchTemplateId: o.LaunchTemplateId, DefaultVersion: o.LatestVersion }),
  );
  await asg.send(
    new UpdateAutoScalingGroupCommand({
      AutoScalingGroupName: o.AsgName,
      LaunchTemplate: { LaunchTemplateId: o.LaunchTemplateId, Version: o.LatestVersion },
    }),
  );
  const g = await getAsg(o.AsgName);
  const victim = g!.Instances![0].InstanceId!;
  await asg.send(
    new TerminateInstanceInAutoScalingGroupCommand({ InstanceId: victim, ShouldDecrementDesiredCapacity: false }),
  );
  const running = (await asgEc2Instances(o.AsgName)).filter((i) => i.State?.Name === 'running');
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
  const g2 = await getAsg(o.AsgName);
  record(
    'asg',
    'recipe: emulate CFN LT-version propagation on moto',
    JSON.stringify(tags) === JSON.stringify(['1', o.LatestVersion]) ? 'info' : 'differs',
    `ASG LaunchTemplate.Version ${g2?.LaunchTemplate?.Version}; after replacing one instance, running (EC2 tag version/image/userdata): ${JSON.stringify(view)}; ASG Instances[].LaunchTemplate.Version ${JSON.stringify(g2?.Instances?.map((i) => i.LaunchTemplate?.Version))} (= LT default, useless)`,
  );
  await cfn.send(new DeleteStackCommand({ StackName: 'probe-recipe' }));
});

// ---- failure modes
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
  const s = await describeStack('probe-bad-vpc').then(
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
        Parameters: params(baseParams()),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    ),
  );
  const s = await describeStack('probe-bad-asg').then(
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
          Parameters: params(baseParams()),
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
      VPCZoneIdentifier: ['${subnetA}']
`;
  const e = await expectError(() =>
    cfn.send(new CreateStackCommand({ StackName: 'probe-throws', TemplateBody: body })),
  );
  const s = await describeStack('probe-throws').then(
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
    vpcId +
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
  const us = await describeStack('probe-update-throws').then(
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

await step('ec2', 'LT with unknown AMI / RegisterImage', async () => {
  const body = nodePoolTemplate();
  const e = await expectError(() =>
    cfn.send(
      new CreateStackCommand({
        StackName: 'probe-bad-ami',
        TemplateBody: body,
        Parameters: params({ ...baseParams(), ImageId: 'ami-0000000000000dead' }),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    ),
  );
  const s = await describeStack('probe-bad-ami').then(
    (x) => x,
    () => undefined,
  );
  const g = s ? await getAsg(outputs(s).AsgName) : undefined;
  const insts = g ? await asgEc2Instances(g.AutoScalingGroupName!) : [];
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

await step('cfn', 'CreateStack unknown resource type', async () => {
  const body = 'Resources:\n  X:\n    Type: AWS::Nope::Thing\n    Properties: {A: 1}\n';
  const e = await expectError(() =>
    cfn.send(new CreateStackCommand({ StackName: 'probe-unknown-type', TemplateBody: body })),
  );
  const s = await describeStack('probe-unknown-type').then(
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
        Parameters: params({ ImageId: amiA }),
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    ),
  );
  const s1 = await describeStack('probe-missing-param').then(
    (x) => x.StackStatus,
    () => 'no stack',
  );
  record('cfn', 'CreateStack missing required parameter', e1 ? 'same' : 'differs', `${e1 ?? 'accepted'}; stack: ${s1}`);
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
        Parameters: params(baseParams()),
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

// ---- S3 + TemplateURL
const bucket = 'clm-probe-templates';
await step('s3', 'CreateBucket / PutObject / GetObject / HeadObject / List / Delete', async () => {
  await s3.send(
    new CreateBucketCommand({
      Bucket: bucket,
      CreateBucketConfiguration: { LocationConstraint: region as 'eu-central-1' },
    }),
  );
  const body = 'hello ' + 'x'.repeat(1000);
  const put = await s3.send(
    new PutObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt', Body: body, ContentType: 'text/plain' }),
  );
  const get = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt' }));
  const text = await get.Body!.transformToString();
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt' }));
  const list = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'dir/' }));
  record(
    's3',
    'PutObject/GetObject/HeadObject/ListObjectsV2 (forcePathStyle)',
    text === body ? 'same' : 'differs',
    `ETag ${put.ETag}; roundtrip equal ${text === body}; ContentType ${get.ContentType}; ContentLength ${head.ContentLength}; list ${JSON.stringify(list.Contents?.map((c) => c.Key))}`,
  );
  const miss = await expectError(() => s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'nope' })));
  record('s3', 'GetObject missing key', miss?.startsWith('NoSuchKey') ? 'same' : 'differs', miss ?? 'no error');
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt' }));
  const vh = new S3Client({ ...common, forcePathStyle: false });
  const vhr = await expectError(() => vh.send(new PutObjectCommand({ Bucket: bucket, Key: 'vh.txt', Body: 'x' })));
  record(
    's3',
    'virtual-hosted-style addressing against 127.0.0.1',
    vhr ? 'differs' : 'same',
    vhr ?? 'works (SDK falls back to path style for IP endpoints)',
  );
});

await step('cfn', 'CreateStack with TemplateURL (template > 51,200 bytes)', async () => {
  // Pad with Metadata so the body exceeds the 51,200-byte TemplateBody limit.
  const pad = Array.from({ length: 600 }, (_, i) => `    k${i}: ${'y'.repeat(90)}`).join('\n');
  const big =
    `AWSTemplateFormatVersion: '2010-09-09'\nMetadata:\n  Padding:\n${pad}\n` +
    shortForm.replace("AWSTemplateFormatVersion: '2010-09-09'", '').replace('${VPC}', vpcId).replace('${AMI}', amiA);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'stacks/big.yaml', Body: big }));
  const bodyErr = await expectError(() =>
    cfn.send(new CreateStackCommand({ StackName: 'probe-big-body', TemplateBody: big })),
  );
  record(
    'cfn',
    `TemplateBody of ${big.length} bytes (> 51,200)`,
    bodyErr ? 'same' : 'differs',
    bodyErr ?? 'accepted (AWS: ValidationError, TemplateBody max 51,200 bytes)',
  );
  await cfn.send(new DeleteStackCommand({ StackName: 'probe-big-body' })).catch(() => undefined);
  const port = new URL(endpoint!).port;
  const urls = [
    `https://${bucket}.s3.${region}.amazonaws.com/stacks/big.yaml`,
    `https://s3.${region}.amazonaws.com/${bucket}/stacks/big.yaml`,
    `https://${bucket}.s3.amazonaws.com/stacks/big.yaml`,
    `http://localhost:${port}/${bucket}/stacks/big.yaml`,
    `http://127.0.0.1:${port}/${bucket}/stacks/big.yaml`,
  ];
  let i = 0;
  for (const url of urls) {
    i += 1;
    const name = `probe-url-${i}`;
    const e = await expectError(() => cfn.send(new CreateStackCommand({ StackName: name, TemplateURL: url })));
    const s = e ? '' : (await waitStack(name)).stack.StackStatus;
    record('cfn', `TemplateURL ${url.replace(String(port), 'PORT')}`, e ? 'differs' : 'same', e ?? `status ${s}`);
    if (!e) {
      const ue = await expectError(() =>
        cfn.send(new UpdateStackCommand({ StackName: name, TemplateURL: url.replace('big.yaml', 'big.yaml') })),
      );
      record(
        'cfn',
        `UpdateStack same TemplateURL (${i})`,
        'info',
        ue ?? `accepted, status ${(await describeStack(name)).StackStatus}`,
      );
      await cfn.send(new DeleteStackCommand({ StackName: name }));
    }
  }
});

// ---- change sets
await step('cfn', 'CreateChangeSet / DescribeChangeSet', async () => {
  await cfn.send(
    new CreateStackCommand({
      StackName: 'probe-cs',
      TemplateBody: nodePoolTemplate(),
      Parameters: params(baseParams()),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  await waitStack('probe-cs');
  const ltBefore = outputs(await describeStack('probe-cs')).LatestVersion;
  const cs = await cfn.send(
    new CreateChangeSetCommand({
      StackName: 'probe-cs',
      ChangeSetName: 'plan1',
      ChangeSetType: 'UPDATE',
      TemplateBody: nodePoolTemplate(),
      Parameters: params({ ...baseParams(), UserData: userData2 }),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const d = await cfn.send(new DescribeChangeSetCommand({ StackName: 'probe-cs', ChangeSetName: 'plan1' }));
  record(
    'cfn',
    'DescribeChangeSet (UserData parameter changed)',
    'info',
    `Id ${cs.Id}; Status ${d.Status}; ExecutionStatus ${d.ExecutionStatus}; StatusReason ${d.StatusReason ?? '-'}; Changes ${JSON.stringify(d.Changes?.map((c) => ({ action: c.ResourceChange?.Action, id: c.ResourceChange?.LogicalResourceId, type: c.ResourceChange?.ResourceType, replacement: c.ResourceChange?.Replacement, scope: c.ResourceChange?.Scope, details: c.ResourceChange?.Details?.length })))}`,
  );
  const ltAfterCs = outputs(await describeStack('probe-cs')).LatestVersion;
  record(
    'cfn',
    'CreateChangeSet has no side effects',
    ltAfterCs === ltBefore ? 'same' : 'differs',
    `LatestVersion output ${ltBefore} -> ${ltAfterCs}; stack status ${(await describeStack('probe-cs')).StackStatus}`,
  );
  const cs2 = await cfn.send(
    new CreateChangeSetCommand({
      StackName: 'probe-cs',
      ChangeSetName: 'plan2',
      ChangeSetType: 'UPDATE',
      TemplateBody: nodePoolTemplate('m5.xlarge'),
      Parameters: params(baseParams()),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const d2 = await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: cs2.Id! }));
  record(
    'cfn',
    'DescribeChangeSet (literal InstanceType changed), by ARN',
    'info',
    `Status ${d2.Status}; Changes ${JSON.stringify(d2.Changes?.map((c) => `${c.ResourceChange?.Action}:${c.ResourceChange?.LogicalResourceId}:${c.ResourceChange?.Replacement ?? '-'}`))}`,
  );
  const { ConfigVersion: _cv, ...noDefaulted } = baseParams();
  for (const [label, p] of [
    ['all parameters passed', baseParams()],
    ['defaulted parameter omitted', noDefaulted],
  ] as const) {
    const csName = label.startsWith('all') ? 'plan3' : 'plan4';
    const e3 = await expectError(async () => {
      await cfn.send(
        new CreateChangeSetCommand({
          StackName: 'probe-cs',
          ChangeSetName: csName,
          ChangeSetType: 'UPDATE',
          TemplateBody: nodePoolTemplate(),
          Parameters: params(p),
          Capabilities: ['CAPABILITY_NAMED_IAM'],
        }),
      );
    });
    const d3 = e3
      ? undefined
      : await cfn.send(new DescribeChangeSetCommand({ StackName: 'probe-cs', ChangeSetName: csName }));
    record(
      'cfn',
      `CreateChangeSet with no changes (${label})`,
      d3?.Status === 'FAILED' ? 'same' : 'differs',
      `${e3 ?? `Status ${d3?.Status}; StatusReason ${d3?.StatusReason ?? '-'}; Changes ${d3?.Changes?.length}`} (AWS: change set created, Status FAILED, StatusReason "The submitted information didn't contain changes. Submit different information to create a change set.")`,
    );
  }
  await cfn.send(new ExecuteChangeSetCommand({ StackName: 'probe-cs', ChangeSetName: 'plan1' }));
  const after = await waitStack('probe-cs');
  const csLt = outputs(after.stack).LaunchTemplateId;
  const csVersions = (
    await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: csLt }))
  ).LaunchTemplateVersions?.map(
    (v) =>
      `v${v.VersionNumber}:${Buffer.from(v.LaunchTemplateData?.UserData ?? '', 'base64')
        .toString()
        .trim()
        .split('\n')
        .pop()}`,
  );
  const csParam = after.stack.Parameters?.find((x) => x.ParameterKey === 'UserData')
    ?.ParameterValue?.trim()
    .split('\n')
    .pop();
  record(
    'cfn',
    'ExecuteChangeSet plan1 (UserData parameter change)',
    outputs(after.stack).LatestVersion === '2' ? 'same' : 'differs',
    `status ${after.stack.StackStatus}; LT versions ${JSON.stringify(csVersions)}; Outputs.LatestVersion ${outputs(after.stack).LatestVersion}; DescribeStacks UserData parameter now ${JSON.stringify(csParam)}`,
  );
  const del = await expectError(() =>
    cfn.send(new DeleteChangeSetCommand({ StackName: 'probe-cs', ChangeSetName: 'plan2' })),
  );
  record('cfn', 'DeleteChangeSet', del ? 'differs' : 'same', del ?? 'ok');
  const cr = await cfn.send(
    new CreateChangeSetCommand({
      StackName: 'probe-cs-new',
      ChangeSetName: 'create1',
      ChangeSetType: 'CREATE',
      TemplateBody: nodePoolTemplate(),
      Parameters: params(baseParams()),
      Capabilities: ['CAPABILITY_NAMED_IAM'],
    }),
  );
  const crs = await describeStack('probe-cs-new');
  const crd = await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: cr.Id! }));
  record(
    'cfn',
    'CreateChangeSet ChangeSetType=CREATE',
    crs.StackStatus === 'REVIEW_IN_PROGRESS' ? 'same' : 'differs',
    `stack ${crs.StackStatus}; change set ${crd.Status}; Changes ${JSON.stringify(crd.Changes?.map((c) => `${c.ResourceChange?.Action}:${c.ResourceChange?.LogicalResourceId}`))}`,
  );
  await cfn.send(new DeleteStackCommand({ StackName: 'probe-cs-new' })).catch(() => undefined);
  await cfn.send(new DeleteStackCommand({ StackName: 'probe-cs' }));
});

// ---- KMS
await step('kms', 'CreateKey / alias / Encrypt / Decrypt', async () => {
  const k = await kms.send(new CreateKeyCommand({ Description: 'clm probe' }));
  await kms.send(new CreateAliasCommand({ AliasName: 'alias/clm-probe', TargetKeyId: k.KeyMetadata!.KeyId! }));
  const plain = new TextEncoder().encode('s3cr3t-value');
  const enc = await kms.send(
    new EncryptCommand({ KeyId: 'alias/clm-probe', Plaintext: plain, EncryptionContext: { cluster: 'probe' } }),
  );
  const dec = await kms.send(
    new DecryptCommand({ CiphertextBlob: enc.CiphertextBlob, EncryptionContext: { cluster: 'probe' } }),
  );
  const ok = new TextDecoder().decode(dec.Plaintext) === 's3cr3t-value';
  record(
    'kms',
    'Encrypt (by alias) / Decrypt (no KeyId)',
    ok ? 'same' : 'broken',
    `roundtrip ${ok}; Encrypt KeyId ${enc.KeyId}; Decrypt KeyId ${dec.KeyId}; ciphertext ${enc.CiphertextBlob?.length} bytes`,
  );
  const wrong = await expectError(() =>
    kms.send(new DecryptCommand({ CiphertextBlob: enc.CiphertextBlob, EncryptionContext: { cluster: 'other' } })),
  );
  record('kms', 'Decrypt with wrong EncryptionContext', wrong ? 'same' : 'differs', wrong ?? 'succeeded');
  const bad = await expectError(() => kms.send(new DecryptCommand({ CiphertextBlob: new Uint8Array([1, 2, 3, 4]) })));
  record('kms', 'Decrypt garbage', bad ? 'same' : 'differs', bad ?? 'succeeded');
});

record('probe', 'total probe time', 'info', `${Date.now() - t0} ms against ${endpoint}`);

if (process.env.PROBE_JSON) writeFileSync(process.env.PROBE_JSON, JSON.stringify(findings, null, 2));
const counts = findings.reduce<Record<string, number>>((a, f) => ({ ...a, [f.verdict]: (a[f.verdict] ?? 0) + 1 }), {});
console.log(`\nsummary: ${JSON.stringify(counts)}`);

if (stateDir) execFileSync('bash', [join(here, 'moto.sh'), 'stop', stateDir], { stdio: 'inherit' });
