/**
 * The IAM requests CloudFormation makes with a stack's service role to deploy rendered cluster templates: for each
 * resource, the actions of its type and of the properties it sets (fixtures/cfn-handler-actions.ts), each on the
 * resource it acts on — with the name the template gives it or the one CloudFormation generates
 * (`<stack>-<logical id>-<suffix>`), and CloudFormation's `aws:cloudformation:stack-name` tag on resources of a stack.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseCfnTemplate } from '../../../lambdas/core/cloudformation/cfn-yaml';
import { HANDLER_ACTIONS, type Target } from '../fixtures/cfn-handler-actions';
import type { IamRequest } from './iam-policy';

export const ACCOUNT = '123456789012';
const REGION = 'eu-central-1';

export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
}

/** A stack's resources, with only the property values that name or reference something (the rest: `true`). */
export interface StackResources {
  readonly stack: string;
  readonly resources: Record<string, TemplateResource>;
}

export interface TemplateCall extends IamRequest {
  /** `<stack>/<logical id> (<type>)`, for messages. */
  readonly by: string;
}

const KEPT = new Set([
  'AutoScalingGroupName',
  'Bucket',
  'BucketName',
  'DestinationArn',
  'GroupId',
  'InstanceProfileName',
  'LaunchTemplateName',
  'LogGroupName',
  'Name',
  'PermissionsBoundary',
  'QueueName',
  'Queues',
  'RoleArn',
  'RoleName',
  'Roles',
  'TopicName',
  'Url',
]);

/** The rendered stacks of one cluster (`clm render --out`'s `<cluster>/stacks/*.yaml`), reduced. */
export function renderedStacks(clusterDir: string): StackResources[] {
  const dir = join(clusterDir, 'stacks');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const template = parseCfnTemplate(readFileSync(join(dir, file), 'utf8'), file) ?? {};
      const resources = (template.Resources ?? {}) as Record<string, TemplateResource>;
      return {
        stack: file.replace(/\.yaml$/, ''),
        resources: Object.fromEntries(
          Object.entries(resources).map(([id, r]) => [
            id,
            {
              Type: r.Type,
              Properties: Object.fromEntries(
                Object.entries(r.Properties ?? {}).map(([k, v]) => [k, KEPT.has(k) ? v : true]),
              ),
            },
          ]),
        ),
      };
    });
}

const STACK_TAG = 'aws:ResourceTag/aws:cloudformation:stack-name';
const NAME_PROPERTY: Record<string, string> = {
  'AWS::AutoScaling::AutoScalingGroup': 'AutoScalingGroupName',
  'AWS::EC2::LaunchTemplate': 'LaunchTemplateName',
  'AWS::Events::Rule': 'Name',
  'AWS::IAM::InstanceProfile': 'InstanceProfileName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::SSM::Document': 'Name',
};

/** Every call the stacks need, each with the resource it is on and the request's condition keys. */
export function templateCalls(stacks: readonly StackResources[], nodeRoleBoundaryArn: string): TemplateCall[] {
  const calls: TemplateCall[] = [];
  for (const { stack, resources } of stacks) {
    const nameOf = (id: string): string => {
      const r = resources[id];
      const given = r && NAME_PROPERTY[r.Type] ? r.Properties?.[NAME_PROPERTY[r.Type]!] : undefined;
      if (typeof given === 'string') return given;
      const generated = `${stack}-${id}-1A2B3C4D5E6F`;
      return r?.Type === 'AWS::S3::Bucket' ? generated.toLowerCase().slice(0, 63) : generated;
    };
    const named = (value: unknown): string | undefined => {
      if (typeof value === 'string') return value;
      const o = value as Record<string, unknown> | undefined;
      if (typeof o?.Ref === 'string') return nameOf(o.Ref);
      return undefined;
    };
    /** The stack a reference's resource belongs to (an import `<stack>:<output>` names another stack). */
    const ownerOf = (value: unknown): string | undefined => {
      const o = value as Record<string, unknown> | undefined;
      if (o && ('Ref' in o || 'Fn::GetAtt' in o)) return stack;
      const imported = o?.['Fn::ImportValue'];
      if (typeof imported === 'string') return imported.split(':')[0];
      return undefined;
    };
    const passedRoles = Object.values(resources).flatMap((r) => {
      if (r.Type === 'AWS::IAM::InstanceProfile')
        return ((r.Properties?.Roles as unknown[]) ?? []).map((x) => named(x) ?? `${stack}-Role-1A2B3C4D5E6F`);
      if (typeof r.Properties?.RoleArn === 'string') return [r.Properties.RoleArn.split('/').pop()!];
      return [];
    });
    const tagged = (owner: string | undefined): Record<string, string> => (owner ? { [STACK_TAG]: owner } : {});
    const arn = (service: string, resource: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${resource}`;

    for (const [id, r] of Object.entries(resources)) {
      const known = HANDLER_ACTIONS[r.Type];
      if (!known) throw new Error(`${stack}/${id}: no handler actions known for ${r.Type} (cfn-handler-actions.ts)`);
      const p = r.Properties ?? {};
      const self = (): Pick<IamRequest, 'resource' | 'context'>[] => {
        switch (r.Type) {
          case 'AWS::AutoScaling::AutoScalingGroup':
            return [
              {
                resource: arn('autoscaling', `autoScalingGroup:uuid:autoScalingGroupName/${nameOf(id)}`),
                context: tagged(stack),
              },
            ];
          case 'AWS::AutoScaling::LifecycleHook':
            return [
              {
                resource: arn(
                  'autoscaling',
                  `autoScalingGroup:uuid:autoScalingGroupName/${named(p.AutoScalingGroupName)}`,
                ),
                context: tagged(stack),
              },
            ];
          case 'AWS::EC2::LaunchTemplate':
            return [{ resource: arn('ec2', 'launch-template/lt-0123456789abcdef0'), context: tagged(stack) }];
          case 'AWS::EC2::SecurityGroup':
            return [{ resource: arn('ec2', 'security-group/sg-0123456789abcdef0'), context: tagged(stack) }];
          case 'AWS::EC2::SecurityGroupIngress':
            return [
              { resource: arn('ec2', 'security-group/sg-0123456789abcdef1'), context: tagged(ownerOf(p.GroupId)) },
            ];
          case 'AWS::ElasticLoadBalancingV2::LoadBalancer':
            return [{ resource: arn('elasticloadbalancing', 'loadbalancer/net/lb/0123'), context: tagged(stack) }];
          case 'AWS::ElasticLoadBalancingV2::TargetGroup':
            return [{ resource: arn('elasticloadbalancing', 'targetgroup/tg/0123'), context: tagged(stack) }];
          case 'AWS::ElasticLoadBalancingV2::Listener':
            return [{ resource: arn('elasticloadbalancing', 'listener/net/lb/0123/4567'), context: tagged(stack) }];
          case 'AWS::Events::Rule':
            return [{ resource: arn('events', `rule/${nameOf(id)}`) }];
          case 'AWS::IAM::InstanceProfile':
            return [{ resource: `arn:aws:iam::${ACCOUNT}:instance-profile/${nameOf(id)}` }];
          case 'AWS::IAM::OIDCProvider':
            return [{ resource: `arn:aws:iam::${ACCOUNT}:oidc-provider/${String(p.Url).replace(/^https:\/\//, '')}` }];
          case 'AWS::IAM::Role':
            // every role a template makes carries the node-role boundary (docs/deploying-into-your-organisation.md)
            return [
              {
                resource: `arn:aws:iam::${ACCOUNT}:role/${nameOf(id)}`,
                context: { 'iam:PermissionsBoundary': nodeRoleBoundaryArn },
              },
            ];
          case 'AWS::KMS::Key':
            return [{ resource: arn('kms', 'key/0e7c0000-0000-4000-8000-000000000001'), context: tagged(stack) }];
          case 'AWS::Logs::LogGroup':
            return [{ resource: arn('logs', `log-group:${nameOf(id)}`) }];
          case 'AWS::Logs::SubscriptionFilter':
            return [{ resource: arn('logs', `log-group:${named(p.LogGroupName)}`) }];
          case 'AWS::Route53::RecordSet':
            return [
              {
                resource: 'arn:aws:route53:::hostedzone/Z0123456789ABCDEFGHIJ',
                context: {
                  'route53:ChangeResourceRecordSetsNormalizedRecordNames': [
                    String(p.Name).toLowerCase().replace(/\.$/, ''),
                  ],
                },
              },
            ];
          case 'AWS::S3::Bucket':
            return [{ resource: `arn:aws:s3:::${nameOf(id)}` }];
          case 'AWS::S3::BucketPolicy':
            return [{ resource: `arn:aws:s3:::${named(p.Bucket)}` }];
          case 'AWS::SNS::Topic':
            return [{ resource: arn('sns', nameOf(id)) }];
          case 'AWS::SQS::Queue':
            return [{ resource: arn('sqs', nameOf(id)) }];
          case 'AWS::SQS::QueuePolicy':
            return ((p.Queues as unknown[]) ?? []).map((q) => ({ resource: arn('sqs', named(q)!) }));
          case 'AWS::SSM::Document':
            return [{ resource: arn('ssm', `document/${nameOf(id)}`) }];
          default:
            throw new Error(`${stack}/${id}: no resource known for ${r.Type}`);
        }
      };
      const on = (target: Target | undefined): Pick<IamRequest, 'resource' | 'context'>[] => {
        switch (target ?? 'self') {
          case 'self':
            return self();
          case 'any':
            return [{ resource: '*' }];
          case 'instances':
            return [{ resource: arn('ec2', 'instance/*'), context: { 'ec2:CreateAction': 'RunInstances' } }];
          case 'passed-role':
            return (passedRoles.length ? passedRoles : [`${stack}-Role-1A2B3C4D5E6F`]).map((name) => ({
              resource: `arn:aws:iam::${ACCOUNT}:role/${name}`,
            }));
          case 'destination':
            return [{ resource: String(p.DestinationArn) }];
        }
      };
      const groups = [
        ...known.always,
        ...Object.keys(p).flatMap((property) => {
          const actions = known.properties[property];
          if (!actions)
            throw new Error(`${stack}/${id}: ${r.Type} property ${property} has no entry in cfn-handler-actions.ts`);
          return actions;
        }),
      ];
      for (const group of groups)
        for (const target of on(group.on))
          for (const action of group.actions) calls.push({ by: `${stack}/${id} (${r.Type})`, action, ...target });
    }
  }
  return calls;
}
