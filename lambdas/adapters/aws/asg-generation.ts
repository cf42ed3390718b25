/**
 * What an Auto Scaling group wants its instances to be, and whether an instance still is that (CLM §7.1, "generation"):
 * the launch template (id or name) and its explicit numeric version, an allowed instance type, and the spot-ness.
 */
import type { AutoScalingGroup, Instance as AsgInstance } from '@aws-sdk/client-auto-scaling';
import { ConfigError } from '../../shared/errors';

export interface TemplateRef {
  readonly id?: string;
  readonly name?: string;
  readonly version: string;
}

/** The parts of a launch template version the generation check needs. */
export interface TemplateFacts {
  readonly instanceType?: string;
  readonly spot: boolean;
}

export interface Generation {
  readonly asgName: string;
  readonly template: TemplateRef;
  /** Undefined when neither the overrides nor the launch template name a type: any type is then accepted. */
  readonly allowedTypes?: ReadonlySet<string>;
  readonly spot: boolean;
}

/** The launch template an ASG references now; `$Latest`, `$Default` or no version is a ConfigError naming the ASG. */
export function currentTemplate(group: AutoScalingGroup): TemplateRef {
  const asgName = group.AutoScalingGroupName ?? '(unnamed)';
  const spec = group.MixedInstancesPolicy?.LaunchTemplate?.LaunchTemplateSpecification ?? group.LaunchTemplate;
  if (!spec || (!spec.LaunchTemplateId && !spec.LaunchTemplateName)) {
    throw new ConfigError(
      `Auto Scaling group ${asgName} has no launch template; launch configurations are not supported`,
    );
  }
  const version = spec.Version;
  if (!version || !/^\d+$/.test(version)) {
    throw new ConfigError(
      `Auto Scaling group ${asgName} references launch template ${spec.LaunchTemplateId ?? spec.LaunchTemplateName} with version ` +
        `${version ?? '(none)'}; it must be an explicit version number (e.g. !GetAtt LaunchTemplate.LatestVersionNumber), not $Latest or $Default`,
    );
  }
  return { id: spec.LaunchTemplateId, name: spec.LaunchTemplateName, version };
}

/** Instance types from MixedInstancesPolicy overrides; empty when there are none. */
export function overrideTypes(group: AutoScalingGroup): string[] {
  return (group.MixedInstancesPolicy?.LaunchTemplate?.Overrides ?? []).flatMap((o) =>
    o.InstanceType ? [o.InstanceType] : [],
  );
}

/**
 * Whether the launch template must be read: for the instance type when there are no overrides, and for the market
 * type when there is no MixedInstancesPolicy (whose OnDemandPercentageAboveBaseCapacity decides spot-ness instead).
 */
export function needsTemplateFacts(group: AutoScalingGroup): boolean {
  return overrideTypes(group).length === 0 || group.MixedInstancesPolicy === undefined;
}

export function generationOf(group: AutoScalingGroup, facts: TemplateFacts | undefined): Generation {
  const template = currentTemplate(group);
  const overrides = overrideTypes(group);
  const types = overrides.length > 0 ? overrides : facts?.instanceType ? [facts.instanceType] : [];
  const mixed = group.MixedInstancesPolicy;
  const spot = mixed ? mixed.InstancesDistribution?.OnDemandPercentageAboveBaseCapacity === 0 : (facts?.spot ?? false);
  return {
    asgName: group.AutoScalingGroupName ?? '',
    template,
    ...(types.length > 0 ? { allowedTypes: new Set(types) } : {}),
    spot,
  };
}

/** What EC2 says about a running instance; it wins over the Auto Scaling group's view of it. */
export interface InstanceFacts {
  readonly spot: boolean;
  readonly instanceType?: string;
  /** EC2 system tags `aws:ec2launchtemplate:id` / `:version`, written at launch. */
  readonly launchTemplateId?: string;
  readonly launchTemplateVersion?: string;
  /** EC2 LaunchTime (ms since the epoch). */
  readonly launchedAt?: number;
}

/** The launch template and version an instance was launched with: EC2's launch tags first, then the ASG's record. */
export function launchedFrom(
  instance: AsgInstance,
  facts: InstanceFacts | undefined,
): { id?: string; name?: string; version?: string } | undefined {
  const lt = instance.LaunchTemplate;
  if (facts?.launchTemplateVersion) {
    return {
      id: facts.launchTemplateId ?? lt?.LaunchTemplateId,
      name: lt?.LaunchTemplateName,
      version: facts.launchTemplateVersion,
    };
  }
  return lt ? { id: lt.LaunchTemplateId, name: lt.LaunchTemplateName, version: lt.Version } : undefined;
}

/**
 * Outdated = another launch template or version, a type outside the allowed set, or the wrong spot-ness.
 * Without EC2 facts (EC2 did not describe the instance) the ASG's record is used and spot-ness is not judged.
 */
export function isOutdated(instance: AsgInstance, generation: Generation, facts: InstanceFacts | undefined): boolean {
  const launched = launchedFrom(instance, facts);
  if (!launched) return true;
  const { template } = generation;
  const sameTemplate = template.id && launched.id ? launched.id === template.id : launched.name === template.name;
  if (!sameTemplate || launched.version !== template.version) return true;
  const type = facts?.instanceType ?? instance.InstanceType;
  if (generation.allowedTypes && type && !generation.allowedTypes.has(type)) return true;
  return facts !== undefined && facts.spot !== generation.spot;
}

/**
 * Spread a new total over groups (CLM `Scale`): increases go one by one to the group with the smallest desired
 * capacity, decreases come from the largest; ties go by name, so equal groups take turns.
 */
export function distributeDesired(
  groups: readonly { readonly name: string; readonly desired: number }[],
  total: number,
): Map<string, number> {
  const sizes = [...groups]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((g) => ({ name: g.name, desired: g.desired }));
  let current = sizes.reduce((sum, g) => sum + g.desired, 0);
  while (current < total && sizes.length > 0) {
    const smallest = sizes.reduce((best, g) => (g.desired < best.desired ? g : best));
    smallest.desired += 1;
    current += 1;
  }
  while (current > total && sizes.length > 0) {
    const largest = sizes.reduce((best, g) => (g.desired > best.desired ? g : best));
    if (largest.desired === 0) break;
    largest.desired -= 1;
    current -= 1;
  }
  return new Map(sizes.map((g) => [g.name, g.desired]));
}
