import { distributeDesired, generationOf, isOutdated } from '../../../lambdas/adapters/aws/asg-generation';

describe('distributeDesired', () => {
  const groups = [
    { name: 'c', desired: 0 },
    { name: 'a', desired: 0 },
    { name: 'b', desired: 0 },
  ];

  it('spreads an increase round-robin over equal groups in name order', () => {
    expect(Object.fromEntries(distributeDesired(groups, 4))).toEqual({ a: 2, b: 1, c: 1 });
  });

  it('fills the smallest group first', () => {
    expect(
      Object.fromEntries(
        distributeDesired(
          [
            { name: 'a', desired: 5 },
            { name: 'b', desired: 1 },
          ],
          8,
        ),
      ),
    ).toEqual({ a: 5, b: 3 });
  });

  it('takes a decrease from the largest group first and never goes below zero', () => {
    expect(
      Object.fromEntries(
        distributeDesired(
          [
            { name: 'a', desired: 1 },
            { name: 'b', desired: 4 },
          ],
          2,
        ),
      ),
    ).toEqual({ a: 1, b: 1 });
    expect(Object.fromEntries(distributeDesired([{ name: 'a', desired: 1 }], -3))).toEqual({ a: 0 });
  });

  it('keeps sizes that already add up', () => {
    expect(
      Object.fromEntries(
        distributeDesired(
          [
            { name: 'a', desired: 2 },
            { name: 'b', desired: 1 },
          ],
          3,
        ),
      ),
    ).toEqual({ a: 2, b: 1 });
  });
});

describe('isOutdated', () => {
  const generation = generationOf(
    { AutoScalingGroupName: 'g', LaunchTemplate: { LaunchTemplateName: 'worker', Version: '4' } } as never,
    { instanceType: 'm5.large', spot: false },
  );

  it('compares by name when the instance carries no template id', () => {
    expect(
      isOutdated(
        { LaunchTemplate: { LaunchTemplateName: 'worker', Version: '4' }, InstanceType: 'm5.large' } as never,
        generation,
        { spot: false },
      ),
    ).toBe(false);
    expect(
      isOutdated(
        { LaunchTemplate: { LaunchTemplateName: 'other', Version: '4' }, InstanceType: 'm5.large' } as never,
        generation,
        { spot: false },
      ),
    ).toBe(true);
  });

  it("believes the EC2 launch tags and type over the group's record of the instance", () => {
    const recorded = {
      LaunchTemplate: { LaunchTemplateName: 'worker', Version: '4' },
      InstanceType: 'm5.large',
    } as never;
    expect(isOutdated(recorded, generation, { spot: false, launchTemplateVersion: '3' })).toBe(true);
    expect(
      isOutdated(recorded, generation, { spot: false, launchTemplateVersion: '4', instanceType: 'c5.large' }),
    ).toBe(true);
  });

  it('skips the spot check when EC2 did not describe the instance', () => {
    expect(
      isOutdated(
        { LaunchTemplate: { LaunchTemplateName: 'worker', Version: '4' }, InstanceType: 'm5.large' } as never,
        generation,
        undefined,
      ),
    ).toBe(false);
  });

  it('accepts any type when neither overrides nor the template name one', () => {
    const open = generationOf(
      { AutoScalingGroupName: 'g', LaunchTemplate: { LaunchTemplateName: 'worker', Version: '4' } } as never,
      { spot: false },
    );
    expect(
      isOutdated(
        { LaunchTemplate: { LaunchTemplateName: 'worker', Version: '4' }, InstanceType: 'x9.huge' } as never,
        open,
        { spot: false },
      ),
    ).toBe(false);
  });
});
