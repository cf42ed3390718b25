/**
 * The probe's clients on one moto server (started here unless AWS_ENDPOINT_URL names one), what earlier checks
 * found and later ones use (the default VPC and subnets, two AMIs, the node-pool stack's group and launch template),
 * and the lookups the checks share.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { Stack } from '@aws-sdk/client-cloudformation';
import { DescribeInstancesCommand, DescribeLaunchTemplateVersionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { Instance } from '@aws-sdk/client-ec2';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { STSClient } from '@aws-sdk/client-sts';
import { userData1 } from './templates';

const MOTO_SH = join(dirname(fileURLToPath(import.meta.url)), '..', 'moto.sh');

/** The moto server the probe talks to: AWS_ENDPOINT_URL, or one started (and stopped) here. */
export interface MotoServer {
  readonly endpoint: string;
  stop(): void;
}

export function motoServer(): MotoServer {
  const given = process.env.AWS_ENDPOINT_URL;
  if (given) return { endpoint: given, stop: () => undefined };
  const stateDir = mkdtempSync(join(tmpdir(), 'clm-moto-probe-'));
  const out = execFileSync('bash', [MOTO_SH, 'start', stateDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return {
    endpoint: /AWS_ENDPOINT_URL=(\S+)/.exec(out)![1],
    stop: () => void execFileSync('bash', [MOTO_SH, 'stop', stateDir], { stdio: 'inherit' }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Probe {
  readonly clientConfig: {
    endpoint: string;
    region: string;
    credentials: { accessKeyId: string; secretAccessKey: string };
  };
  readonly cfn: CloudFormationClient;
  readonly asg: AutoScalingClient;
  readonly ec2: EC2Client;
  readonly s3: S3Client;
  readonly kms: KMSClient;
  readonly sts: STSClient;
  vpcId = '';
  subnetA = '';
  subnetB = '';
  amiA = '';
  amiB = '';
  /** The node-pool stack's group (it changes when an update re-creates the group) and launch template. */
  asgName = '';
  ltId = '';
  /** The group's instances right after the stack was created. */
  initialIds: string[] = [];

  constructor(
    readonly endpoint: string,
    readonly region: string,
  ) {
    this.clientConfig = { endpoint, region, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } };
    this.cfn = new CloudFormationClient(this.clientConfig);
    this.asg = new AutoScalingClient(this.clientConfig);
    this.ec2 = new EC2Client(this.clientConfig);
    this.s3 = new S3Client({ ...this.clientConfig, forcePathStyle: true });
    this.kms = new KMSClient(this.clientConfig);
    this.sts = new STSClient(this.clientConfig);
  }

  /** The node-pool stack's parameters: the first AMI and UserData, the default VPC's first two subnets. */
  baseParams() {
    return {
      ImageId: this.amiA,
      UserData: userData1,
      VpcId: this.vpcId,
      SubnetA: this.subnetA,
      SubnetB: this.subnetB,
      ConfigVersion: 'c1',
    };
  }

  async describeStack(name: string): Promise<Stack> {
    const r = await this.cfn.send(new DescribeStacksCommand({ StackName: name }));
    return r.Stacks![0];
  }

  /** Polls like a real adapter would; returns final status and how long it took. */
  async waitStack(name: string, timeoutMs = 30_000): Promise<{ stack: Stack; ms: number; polls: number }> {
    const t0 = Date.now();
    let polls = 0;
    for (;;) {
      polls += 1;
      const stack = await this.describeStack(name);
      if (!stack.StackStatus!.endsWith('_IN_PROGRESS') || Date.now() - t0 > timeoutMs)
        return { stack, ms: Date.now() - t0, polls };
      await sleep(250);
    }
  }

  async getAsg(name: string): Promise<AutoScalingGroup | undefined> {
    const r = await this.asg.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [name] }));
    return r.AutoScalingGroups?.[0];
  }

  async asgEc2Instances(name: string): Promise<Instance[]> {
    const r = await this.ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'tag:aws:autoscaling:groupName', Values: [name] }] }),
    );
    return (r.Reservations ?? []).flatMap((x) => x.Instances ?? []);
  }

  /** The versions of the node-pool stack's launch template: number, default flag, image, type, last UserData line. */
  async ltVersions() {
    const r = await this.ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: this.ltId }));
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
  }
}
