import {
  launchFailureProblem,
  vcpuLimitExceededMessage,
  vcpuLimitInMessage,
  vcpuQuotaOf,
  vcpusByQuota,
} from '../../../lambdas/core/capacity/vcpu-quotas';

describe('the On-Demand vCPU quota of an instance type', () => {
  it.each([
    ['m5.large', 'L-1216C47A'],
    ['c6i.xlarge', 'L-1216C47A'],
    ['r6g.large', 'L-1216C47A'],
    ['t3.medium', 'L-1216C47A'],
    ['i4i.large', 'L-1216C47A'],
    ['z1d.large', 'L-1216C47A'],
    ['g5.xlarge', 'L-DB2E81BA'],
    ['vt1.3xlarge', 'L-DB2E81BA'],
    ['p3.2xlarge', 'L-417A185B'],
    ['x2idn.16xlarge', 'L-7295265B'],
    ['f1.2xlarge', 'L-74FC7D96'],
    ['inf2.xlarge', 'L-6E869C2A'],
  ])('%s counts against %s', (type, code) => {
    expect(vcpuQuotaOf(type)?.code).toBe(code);
  });

  it('is none for families with quotas of their own (Trn, DL, high memory, Mac)', () => {
    for (const type of ['trn1.2xlarge', 'dl1.24xlarge', 'u-6tb1.metal', 'mac1.metal'])
      expect(vcpuQuotaOf(type)).toBeUndefined();
  });

  it('sums On-Demand vCPUs per quota, spot left out', () => {
    expect(
      vcpusByQuota([
        { instanceType: 'm5.large' },
        { instanceType: 'm5.xlarge' },
        { instanceType: 'm5.xlarge', spot: true },
        { instanceType: 'g5.xlarge' },
      ]),
    ).toEqual({ 'L-1216C47A': 6, 'L-DB2E81BA': 4 });
  });
});

describe("EC2's refusal and the roll's problem", () => {
  it('reads the limit back from the message and names group, type, quota and limit', () => {
    const message = `${vcpuLimitExceededMessage(32)} Launching EC2 instance failed.`;
    expect(vcpuLimitInMessage(message)).toBe(32);
    expect(launchFailureProblem('workers-a', 'm5.xlarge', message)).toMatch(
      /^Auto Scaling group workers-a cannot launch m5\.xlarge: the account's vCPU limit of 32 is reached, quota L-1216C47A \(Running On-Demand Standard/,
    );
    expect(launchFailureProblem('workers-a', 'm5.xlarge', 'We currently do not have sufficient capacity')).toBe(
      'Auto Scaling group workers-a cannot launch instances: We currently do not have sufficient capacity',
    );
  });
});
