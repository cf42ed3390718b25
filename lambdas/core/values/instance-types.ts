/**
 * A pinned, offline table of EC2 instance-type facts: the fields CLM reads from DescribeInstanceTypes
 * (reference/clm-behaviour.md §4.3, §4.4): default vCPUs, memory (MiB), architecture, and the instance-store
 * disk set (number of disks and size of each in GB).
 *
 * Source: the specification tables of AWS's "Amazon EC2 Instance Types" guide
 * (https://docs.aws.amazon.com/ec2/latest/instancetypes/ — general purpose, compute optimized, memory
 * optimized and accelerated computing pages: vCPUs, Memory (GiB), Instance store volumes), as published
 * in 2025; the same figures DescribeInstanceTypes returns (VCpuInfo.DefaultVCpus, MemoryInfo.SizeInMiB,
 * InstanceStorageInfo.Disks[0].Count/SizeInGB). It serves offline renders (`clm render`, tests) and the
 * simulator; online, the EC2 API is asked instead (adapters/aws/ec2-cloud-lookups.ts), and `--values` can
 * add or override types (`lookups.instance_types`).
 */
import type { InstanceTypeInfo } from '../../ports/template-engine';

type Row = readonly [vcpu: number, memoryGiB: number, arch: 'amd64' | 'arm64', disks?: number, diskGB?: number];

/** Sizes shared by a family: name → [vCPU, GiB]. */
const M = { large: [2, 8], xlarge: [4, 16], '2xlarge': [8, 32], '4xlarge': [16, 64], '8xlarge': [32, 128] } as const;
const C = { large: [2, 4], xlarge: [4, 8], '2xlarge': [8, 16], '4xlarge': [16, 32], '8xlarge': [32, 64] } as const;
const R = { large: [2, 16], xlarge: [4, 32], '2xlarge': [8, 64], '4xlarge': [16, 128], '8xlarge': [32, 256] } as const;
/** Instance store of the 6th-generation "d" sizes (m6id, m6gd, c6id, r6id…), disks × GB. */
const D6 = {
  large: [1, 118],
  xlarge: [1, 237],
  '2xlarge': [1, 474],
  '4xlarge': [1, 950],
  '8xlarge': [1, 1900],
} as const;
/** Instance store of m5d / r5d. */
const D5 = { large: [1, 75], xlarge: [1, 150], '2xlarge': [1, 300], '4xlarge': [2, 300], '8xlarge': [2, 600] } as const;
/** Instance store of c5d (8xlarge does not exist; 9xlarge is listed below). */
const D5C = { large: [1, 50], xlarge: [1, 100], '2xlarge': [1, 200], '4xlarge': [1, 400] } as const;

type Sizes = Readonly<Record<string, readonly [number, number]>>;

function family(name: string, sizes: Sizes, arch: 'amd64' | 'arm64', disks?: Sizes): [string, Row][] {
  return Object.entries(sizes)
    .filter(([size]) => !disks || disks[size])
    .map(([size, [vcpu, gib]]) => {
      const disk = disks?.[size];
      return [`${name}.${size}`, disk ? [vcpu, gib, arch, disk[0], disk[1]] : [vcpu, gib, arch]];
    });
}

const ROWS: [string, Row][] = [
  ...['m5', 'm6i', 'm6a', 'm7i', 'm7a'].flatMap((f) => family(f, M, 'amd64')),
  ...['m6g', 'm7g'].flatMap((f) => family(f, M, 'arm64')),
  ...family('m5d', M, 'amd64', D5),
  ...family('m6id', M, 'amd64', D6),
  ...family('m6gd', M, 'arm64', D6),
  ...['c5', 'c6i', 'c6a', 'c7i'].flatMap((f) => family(f, C, 'amd64')).filter(([t]) => t !== 'c5.8xlarge'),
  ['c5.9xlarge', [36, 72, 'amd64']],
  ...['c6g', 'c7g'].flatMap((f) => family(f, C, 'arm64')),
  ...family('c5d', C, 'amd64', D5C),
  ...family('c6id', C, 'amd64', D6),
  ...['r5', 'r6i', 'r6a', 'r7i'].flatMap((f) => family(f, R, 'amd64')),
  ...['r6g', 'r7g'].flatMap((f) => family(f, R, 'arm64')),
  ...family('r5d', R, 'amd64', D5),
  ...family('r6id', R, 'amd64', D6),
  ['t2.medium', [2, 4, 'amd64']],
  ['t2.large', [2, 8, 'amd64']],
  ['t2.xlarge', [4, 16, 'amd64']],
  ['t3.medium', [2, 4, 'amd64']],
  ['t3.large', [2, 8, 'amd64']],
  ['t3.xlarge', [4, 16, 'amd64']],
  ['t3.2xlarge', [8, 32, 'amd64']],
  ['t4g.medium', [2, 4, 'arm64']],
  ['t4g.large', [2, 8, 'arm64']],
  ['t4g.xlarge', [4, 16, 'arm64']],
  // accelerated computing (GPU)
  ['p3.2xlarge', [8, 61, 'amd64']],
  ['g3s.xlarge', [4, 30.5, 'amd64']],
  ['g3.4xlarge', [16, 122, 'amd64']],
  ['g4dn.xlarge', [4, 16, 'amd64', 1, 125]],
  ['g4dn.2xlarge', [8, 32, 'amd64', 1, 225]],
  ['g4dn.4xlarge', [16, 64, 'amd64', 1, 225]],
  ['g4dn.8xlarge', [32, 128, 'amd64', 1, 900]],
  ['g5.xlarge', [4, 16, 'amd64', 1, 250]],
  ['g5.2xlarge', [8, 32, 'amd64', 1, 450]],
  ['g5.4xlarge', [16, 64, 'amd64', 1, 600]],
  ['g5.8xlarge', [32, 128, 'amd64', 1, 900]],
  ['g5.16xlarge', [64, 256, 'amd64', 1, 1900]],
];

export const PINNED_INSTANCE_TYPES: ReadonlyMap<string, InstanceTypeInfo> = new Map(
  ROWS.map(([type, [vcpu, gib, architecture, disks = 0, diskGB = 0]]) => [
    type,
    {
      instanceType: type,
      vcpu,
      memoryMiB: gib * 1024,
      architecture,
      instanceStorageDevices: disks,
      instanceStorageDeviceSizeGB: diskGB,
    },
  ]),
);

export const PINNED_INSTANCE_TYPES_SOURCE =
  'AWS "Amazon EC2 Instance Types" guide specification tables (docs.aws.amazon.com/ec2/latest/instancetypes/), 2025';
