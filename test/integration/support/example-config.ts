import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DescribeSubnetsCommand, DescribeVpcsCommand, type EC2Client } from '@aws-sdk/client-ec2';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const EXAMPLE_CLUSTER = 'aws:123456789012:eu-central-1:kube-test';
export const EXAMPLE_CLUSTER_DIR = EXAMPLE_CLUSTER.replace(/:/g, '_');

/**
 * A private copy of examples/config with one CONTROL-PLANE SHIM (the examples already spell the all-protocols
 * security group rule with `FromPort: -1, ToPort: -1`, which moto 5.2.5 needs and AWS reports anyway): the CoreDNS Service's fixed `clusterIP: 10.3.0.10` (Zalando's service range) is moved
 * into the test apiserver's `--service-cluster-ip-range` 10.96.0.0/16 (test/integration/kube/start.sh), which
 * otherwise refuses the Service (HTTP 422 "the provided network does not match the current range").
 */
export function exampleConfigForIntegration(): string {
  const dir = mkdtempSync(join(tmpdir(), 'clm-int-config-'));
  cpSync(join(REPO_ROOT, 'examples', 'config'), dir, { recursive: true });
  const dns = join(dir, 'cluster', 'manifests', '10-coredns', 'service.yaml');
  writeFileSync(dns, readFileSync(dns, 'utf8').replace('clusterIP: 10.3.0.10', 'clusterIP: 10.96.0.10'));
  return dir;
}

/** The deploy-time values production derives from EC2, here from moto's default VPC. */
export async function motoValues(ec2: EC2Client): Promise<Record<string, unknown>> {
  const vpc = (await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] })))
    .Vpcs?.[0];
  if (!vpc?.VpcId) throw new Error('moto has no default VPC');
  const subnets =
    (
      await ec2.send(
        new DescribeSubnetsCommand({
          Filters: [
            { Name: 'vpc-id', Values: [vpc.VpcId] },
            { Name: 'default-for-az', Values: ['true'] },
          ],
        }),
      )
    ).Subnets ?? [];
  const byZone: Record<string, string> = {};
  for (const subnet of subnets.sort((a, b) => a.AvailabilityZone!.localeCompare(b.AvailabilityZone!)))
    byZone[subnet.AvailabilityZone!] = subnet.SubnetId!;
  return {
    vpc_ipv4_cidr: vpc.CidrBlock,
    availability_zones: Object.keys(byZone),
    subnets: { ...byZone, '*': Object.values(byZone).join(',') },
  };
}

export interface RenderedExample {
  readonly dir: string;
  /** stack name → template body */
  readonly stacks: Readonly<Record<string, string>>;
}

/** `clm render` of one example cluster (the real CLI), with the given values. */
export function renderExample(
  configDir: string,
  values: Record<string, unknown>,
  clusterId = EXAMPLE_CLUSTER,
): RenderedExample {
  const out = mkdtempSync(join(tmpdir(), 'clm-int-render-'));
  const valuesFile = join(out, 'values.json');
  writeFileSync(valuesFile, JSON.stringify({ clusters: { [clusterId]: values } }));
  execFileSync(
    process.execPath,
    [
      join(REPO_ROOT, 'bin', 'clm.mjs'),
      'render',
      '--registry',
      join(REPO_ROOT, 'examples', 'clusters.yaml'),
      '--directory',
      configDir,
      '--cluster',
      clusterId,
      '--values',
      valuesFile,
      '--out',
      out,
    ],
    { stdio: 'pipe' },
  );
  const dir = join(out, clusterId.replace(/:/g, '_'));
  const stacks: Record<string, string> = {};
  for (const file of readdirSync(join(dir, 'stacks')))
    stacks[file.replace(/\.yaml$/, '')] = readFileSync(join(dir, 'stacks', file), 'utf8');
  return { dir, stacks };
}
