// The CloudFormation service role of cluster stacks (ClusterStackRole), as synthesized, against what cluster templates
// need and what a config author must not be able to do with it. Every call CloudFormation's handlers make for the
// rendered templates of examples/ and of Zalando's kubernetes-on-aws is derived from the templates' resource types and
// properties (fixtures/cfn-handler-actions.ts) and evaluated against the role's policy and its boundary
// (support/iam-policy.ts). kubernetes-on-aws is not part of this repository: its rendered resources (types, names and
// references only) are in fixtures/koa-rendered-resources.json, made from `docs/koa-check.sh`'s render; with
// CLM_KOA_RENDERED=<rendered cluster directory> the test reads that render instead and checks the fixture against it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { main } from '../../lambdas/cli/main';
import { ClmClusterAccessStack } from '../../infra/stacks/clm-cluster-access-stack';
import type { ClmClusterAccessStackProps } from '../../infra/stacks/clm-cluster-access-stack';
import { captureIo } from '../support/cli-io';
import { REPO_ROOT, testApp } from './synth';
import { decide, resolveIntrinsics, type IamRequest, type PolicyStatement } from './support/iam-policy';
import { ACCOUNT, renderedStacks, templateCalls, type StackResources } from './support/template-calls';

const NODE_BOUNDARY = `arn:aws:iam::${ACCOUNT}:policy/cluster-lifecycle-manager-node-role-boundary`;

interface StackRolePolicy {
  readonly identity: PolicyStatement[];
  readonly boundary: PolicyStatement[];
  readonly json: { inline: string; managed: string[]; boundary: string };
}

function stackRolePolicy(props: Partial<ClmClusterAccessStackProps> = {}): StackRolePolicy {
  const stack = new ClmClusterAccessStack(testApp(), 'ClmClusterAccess', {
    clmAccountId: '210987654321',
    externalId: 'clm-ext-1',
    ...props,
  });
  const template = Template.fromStack(stack).toJSON() as Record<string, any>;
  const resources = template.Resources as Record<string, any>;
  const [roleId, role] = Object.entries(resources).find(
    ([id, r]) => r.Type === 'AWS::IAM::Role' && id.startsWith('StackRole'),
  )!;
  const boundaryId = role.Properties.PermissionsBoundary.Ref as string;
  const resolve = (v: unknown) => resolveIntrinsics(v, template, ACCOUNT);
  // its inline policy and the managed policies attached to it
  const attached = Object.values(resources).filter(
    (r) => r.Type === 'AWS::IAM::ManagedPolicy' && (r.Properties.Roles ?? []).some((x: any) => x.Ref === roleId),
  );
  const inline = (role.Properties.Policies as any[]).flatMap((p) => resolve(p.PolicyDocument.Statement));
  const managed = attached.map((p) => resolve(p.Properties.PolicyDocument.Statement) as PolicyStatement[]);
  const identity = [...inline, ...managed.flat()];
  const boundary = resolve(resources[boundaryId].Properties.PolicyDocument.Statement) as PolicyStatement[];
  return {
    identity: identity as PolicyStatement[],
    boundary,
    json: {
      inline: JSON.stringify({ Version: '2012-10-17', Statement: inline }),
      managed: managed.map((statements) => JSON.stringify({ Version: '2012-10-17', Statement: statements })),
      boundary: JSON.stringify({ Version: '2012-10-17', Statement: boundary }),
    },
  };
}

/** The calls of `stacks` the role does not allow, as `<decision>: <action> on <resource> (<by>)`. */
function refusedCalls(policy: StackRolePolicy, stacks: readonly StackResources[]): string[] {
  const calls = templateCalls(stacks, NODE_BOUNDARY);
  expect(calls.length).toBeGreaterThan(50);
  return calls
    .map((call) => [decide(policy.identity, policy.boundary, call), call] as const)
    .filter(([decision]) => decision !== 'allowed')
    .map(([decision, call]) => `${decision}: ${call.action} on ${call.resource} (${call.by})`);
}

async function renderExamples(registry: string, directory: string): Promise<StackResources[]> {
  const out = mkdtempSync(join(tmpdir(), 'clm-stack-role-'));
  try {
    const io = captureIo(REPO_ROOT);
    const code = await main(['render', '--registry', registry, '--directory', directory, '--out', out], io);
    expect({ code, err: io.err }).toEqual({ code: 0, err: '' });
    const clusters = io.out.match(/^aws:\S+/gm) ?? [];
    expect(clusters.length).toBeGreaterThan(0);
    return clusters.flatMap((id) => renderedStacks(join(out, id.replaceAll(':', '_'))));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function koaStacks(): StackResources[] {
  const fixture = JSON.parse(
    readFileSync(join(__dirname, 'fixtures/koa-rendered-resources.json'), 'utf8'),
  ) as StackResources[];
  const live = process.env.CLM_KOA_RENDERED;
  if (!live) return fixture;
  const rendered = renderedStacks(live);
  expect(rendered).toEqual(fixture);
  return rendered;
}

/** kubernetes-on-aws's e2e cluster as docs/koa-check.sh renders it, and how its account would deploy ClmClusterAccess. */
const KOA_ACCESS: Partial<ClmClusterAccessStackProps> = {
  stackNamePatterns: ['nodepool-*', 'e2e-test'],
  resourceNamePatterns: [
    'nodepool-*',
    'e2e-test*',
    'aws__123456789012__eu-central-1__e2e-test*',
    'zalando-*-123456789012-e2e-test',
    'SessionManager-e2e-test',
    'SSM-SessionManager-e2e-test',
  ],
  sharedStackNamePatterns: ['etcd-cluster-*'],
};

describe('the CloudFormation service role of cluster stacks', () => {
  it('allows every call CloudFormation makes for the rendered templates of examples/', async () => {
    const stacks = [
      ...(await renderExamples('examples/clusters.yaml', 'examples/config')),
      ...(await renderExamples('examples/karpenter-clusters.yaml', 'examples/config')),
      ...(await renderExamples('examples/stack-clusters.yaml', 'examples/cluster-stacks/v3')),
    ];
    expect(refusedCalls(stackRolePolicy(), stacks)).toEqual([]);
  });

  it('allows every call CloudFormation makes for the rendered templates of kubernetes-on-aws (cluster/ and its node pools)', () => {
    const stacks = koaStacks();
    expect(stacks.map((s) => s.stack)).toContain('e2e-test');
    expect(stacks.filter((s) => s.stack.startsWith('nodepool-'))).toHaveLength(11);
    expect(refusedCalls(stackRolePolicy(KOA_ACCESS), stacks)).toEqual([]);
  });

  it('refuses what a config author must not do with it', () => {
    const policy = stackRolePolicy(KOA_ACCESS);
    const other = { 'aws:ResourceTag/aws:cloudformation:stack-name': 'payments-database' };
    const cases: [string, IamRequest][] = [
      ['another bucket’s policy', { action: 's3:PutBucketPolicy', resource: 'arn:aws:s3:::payments-invoices' }],
      ['another bucket’s objects', { action: 's3:GetObject', resource: 'arn:aws:s3:::payments-invoices/a.pdf' }],
      [
        'an access entry on another EKS cluster',
        { action: 'eks:CreateAccessEntry', resource: `arn:aws:eks:eu-central-1:${ACCOUNT}:cluster/payments` },
      ],
      [
        'an access policy on another EKS cluster',
        { action: 'eks:AssociateAccessPolicy', resource: `arn:aws:eks:eu-central-1:${ACCOUNT}:cluster/payments` },
      ],
      ['EKS at all', { action: 'eks:CreateCluster', resource: '*' }],
      [
        'a command on an instance',
        { action: 'ssm:SendCommand', resource: `arn:aws:ec2:eu-central-1:${ACCOUNT}:instance/i-0123456789abcdef0` },
      ],
      [
        'a command document',
        { action: 'ssm:SendCommand', resource: `arn:aws:ssm:eu-central-1::document/AWS-RunShellScript` },
      ],
      [
        'a session on an instance',
        { action: 'ssm:StartSession', resource: `arn:aws:ec2:eu-central-1:${ACCOUNT}:instance/i-0123456789abcdef0` },
      ],
      [
        'a secure parameter',
        { action: 'ssm:GetParameter', resource: `arn:aws:ssm:eu-central-1:${ACCOUNT}:parameter/payments/db-password` },
      ],
      [
        'another stack’s security group',
        {
          action: 'ec2:AuthorizeSecurityGroupIngress',
          resource: `arn:aws:ec2:eu-central-1:${ACCOUNT}:security-group/sg-0aaaaaaaaaaaaaaaa`,
          context: other,
        },
      ],
      [
        'another stack’s KMS key policy',
        {
          action: 'kms:PutKeyPolicy',
          resource: `arn:aws:kms:eu-central-1:${ACCOUNT}:key/0e7c0000-0000-4000-8000-00000000000f`,
          context: other,
        },
      ],
      [
        'another stack’s load balancer',
        {
          action: 'elasticloadbalancing:DeleteLoadBalancer',
          resource: `arn:aws:elasticloadbalancing:eu-central-1:${ACCOUNT}:loadbalancer/app/payments/0123`,
          context: other,
        },
      ],
      [
        'another Auto Scaling group',
        {
          action: 'autoscaling:UpdateAutoScalingGroup',
          resource: `arn:aws:autoscaling:eu-central-1:${ACCOUNT}:autoScalingGroup:uuid:autoScalingGroupName/payments-web`,
        },
      ],
      [
        'an instance terminated',
        { action: 'ec2:TerminateInstances', resource: `arn:aws:ec2:eu-central-1:${ACCOUNT}:instance/i-0123` },
      ],
      [
        'a volume deleted',
        { action: 'ec2:DeleteVolume', resource: `arn:aws:ec2:eu-central-1:${ACCOUNT}:volume/vol-0123` },
      ],
      [
        'tags put on an existing instance',
        { action: 'ec2:CreateTags', resource: `arn:aws:ec2:eu-central-1:${ACCOUNT}:instance/i-0123` },
      ],
      [
        'another log group',
        {
          action: 'logs:DeleteLogGroup',
          resource: `arn:aws:logs:eu-central-1:${ACCOUNT}:log-group:/aws/lambda/payments`,
        },
      ],
      [
        'another queue',
        { action: 'sqs:SetQueueAttributes', resource: `arn:aws:sqs:eu-central-1:${ACCOUNT}:payments-events` },
      ],
      [
        'a DNS record of another name',
        {
          action: 'route53:ChangeResourceRecordSets',
          resource: 'arn:aws:route53:::hostedzone/Z0123456789ABCDEFGHIJ',
          context: { 'route53:ChangeResourceRecordSetsNormalizedRecordNames': ['payments.example.org'] },
        },
      ],
      ['another role', { action: 'iam:PutRolePolicy', resource: `arn:aws:iam::${ACCOUNT}:role/payments-admin` }],
      [
        'a role of its own names without the node-role boundary',
        { action: 'iam:CreateRole', resource: `arn:aws:iam::${ACCOUNT}:role/e2e-test-admin` },
      ],
      [
        'another OIDC provider',
        {
          action: 'iam:DeleteOpenIDConnectProvider',
          resource: `arn:aws:iam::${ACCOUNT}:oidc-provider/token.actions.githubusercontent.com`,
        },
      ],
      ['a user', { action: 'iam:CreateUser', resource: `arn:aws:iam::${ACCOUNT}:user/e2e-test` }],
      ['a secret', { action: 'secretsmanager:GetSecretValue', resource: '*' }],
      ['an ECR repository policy', { action: 'ecr:SetRepositoryPolicy', resource: '*' }],
    ];
    const allowed = cases
      .filter(([, request]) => decide(policy.identity, policy.boundary, request) === 'allowed')
      .map(([what]) => what);
    expect(allowed).toEqual([]);
    // and the same role does allow the cluster's own: the checks above are not refused for want of any grant
    expect(
      decide(policy.identity, policy.boundary, {
        action: 's3:PutBucketPolicy',
        resource: 'arn:aws:s3:::zalando-audittrail-123456789012-e2e-test',
      }),
    ).toBe('allowed');
    expect(
      decide(policy.identity, policy.boundary, {
        action: 'ec2:AuthorizeSecurityGroupIngress',
        resource: `arn:aws:ec2:eu-central-1:${ACCOUNT}:security-group/sg-0aaaaaaaaaaaaaaaa`,
        context: { 'aws:ResourceTag/aws:cloudformation:stack-name': 'etcd-cluster-etcd' },
      }),
    ).toBe('allowed');
  });

  it('holds no `*` action on every resource, and fits IAM’s size limits', () => {
    for (const props of [{}, KOA_ACCESS]) {
      const policy = stackRolePolicy(props);
      const everywhere = policy.identity.filter((s) => s.Effect === 'Allow' && [s.Resource].flat().includes('*'));
      const actions = everywhere.flatMap((s) => [s.Action ?? []].flat());
      expect(actions.filter((a) => !/:(Describe\w*\*?|Get\w+|List\w+|CreateKey)$/.test(a))).toEqual([]);
      // inline policies of a role: 10,240 characters in all; a managed policy: 6,144 (whitespace not counted)
      expect(policy.json.inline.length).toBeLessThanOrEqual(10_240);
      for (const managed of [...policy.json.managed, policy.json.boundary])
        expect(managed.length).toBeLessThanOrEqual(6_144);
    }
  });
});
