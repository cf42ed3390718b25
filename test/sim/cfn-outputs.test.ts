import { SimulatedWorld } from '../../lambdas/sim';
import { ensureAccount } from '../../lambdas/sim/aws/account';
import { deleteStack, deployStack, describeStack } from '../../lambdas/sim/aws/cloudformation';
import { advanceTo } from '../../lambdas/sim/engine';
import { SimContext } from '../../lambdas/sim/sim-context';
import { ValidationError } from '../../lambdas/shared/errors';
import { ACCOUNT, MAIN_TEMPLATE, REGION, testCluster } from './fixtures';

const EXPORTER = `
Resources:
  Topic:
    Type: AWS::SNS::Topic
Outputs:
  TopicArn:
    Value: !Ref Topic
    Export:
      Name: shared-topic
`;

const OUTPUTS = `
Parameters:
  Size:
    Type: Number
    Default: 3
  Zones:
    Type: CommaDelimitedList
    Default: "a,b,c"
Conditions:
  Big: !Equals [!Ref Size, 3]
  Small: !Not [!Condition Big]
  Both: !And [!Condition Big, !Or [!Condition Small, !Equals [x, x]]]
Mappings:
  Sizes:
    "3":
      Type: m5.large
Resources:
  Role:
    Type: AWS::IAM::Role
  Key:
    Type: AWS::KMS::Key
  Group:
    Type: AWS::EC2::SecurityGroup
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: my-bucket
  Lb:
    Type: AWS::ElasticLoadBalancingV2::LoadBalancer
    Properties:
      Name: api
Outputs:
  RoleArn:
    Value: !GetAtt Role.Arn
  RoleArnList:
    Value: !GetAtt [Role, Arn]
  KeyArn:
    Value: !GetAtt Key.Arn
  GroupId:
    Value: !GetAtt Group.GroupId
  Sub:
    Value: !Sub "\${AWS::StackName}/\${AWS::Region}/\${AWS::AccountId}/\${Role}/\${Bucket.Arn}/\${!Literal}"
  SubVars:
    Value: !Sub ["\${Var}-\${AWS::Partition}", { Var: !Ref Size }]
  Joined:
    Value: !Join ["-", [a, !Ref Size, !Select [1, !Ref Zones]]]
  Split:
    Value: !Select [2, !Split [",", "x,y,z"]]
  If:
    Value: !If [Big, big, small]
  IfSmall:
    Value: !If [Small, big, small]
  Both:
    Value: !If [Both, yes, no]
  Base64:
    Value: !Base64 hello
  Azs:
    Value: !Join [",", !GetAZs ""]
  Imported:
    Value: !ImportValue shared-topic
  Mapped:
    Value: !FindInMap [Sizes, !Ref Size, Type]
  Cidrs:
    Value: !Join [",", !Cidr ["10.0.0.0/16", 3, 8]]
  Length:
    Value: !Length [a, b]
  LbDns:
    Value: !GetAtt Lb.DNSName
  Skipped:
    Condition: Small
    Value: never
`;

describe('simulated CloudFormation outputs', () => {
  it('evaluates intrinsic functions over simulated resources, deterministically', async () => {
    const run = async () => {
      const world = SimulatedWorld.create({ timings: { stackCreateSeconds: 10 } });
      const stacks = world.forCluster(testCluster()).stacks;
      await stacks.deploy({ name: 'exporter', templateBody: EXPORTER, tags: {} });
      world.advance(10_000);
      await stacks.deploy({ name: 'outputs', templateBody: OUTPUTS, tags: {} });
      world.advance(10_000);
      return (await stacks.describe('outputs'))!;
    };

    const stack = await run();
    const again = await run();
    const o = stack.outputs;

    expect(stack.status).toBe('CREATE_COMPLETE');
    expect(again.outputs).toEqual(o);
    expect(o.RoleArn).toMatch(new RegExp(`^arn:aws:iam::${ACCOUNT}:role/outputs-Role-[0-9A-F]{13}$`));
    expect(o.RoleArnList).toBe(o.RoleArn);
    expect(o.KeyArn).toMatch(new RegExp(`^arn:aws:kms:${REGION}:${ACCOUNT}:key/[0-9a-f-]{36}$`));
    expect(o.GroupId).toMatch(/^sg-[0-9a-f]{17}$/);
    expect(o.Sub).toBe(`outputs/${REGION}/${ACCOUNT}/${o.RoleArn.split('/').pop()}/arn:aws:s3:::my-bucket/\${Literal}`);
    expect(o.SubVars).toBe('3-aws');
    expect(o.Joined).toBe('a-3-b');
    expect(o.Split).toBe('z');
    expect(o.If).toBe('big');
    expect(o.IfSmall).toBe('small');
    expect(o.Both).toBe('yes');
    expect(o.Base64).toBe(Buffer.from('hello').toString('base64'));
    expect(o.Azs).toBe(`${REGION}a,${REGION}b,${REGION}c`);
    expect(o.Imported).toMatch(/^exporter-Topic-/);
    expect(o.Mapped).toBe('m5.large');
    expect(o.Cidrs).toBe('10.0.0.0/24,10.0.1.0/24,10.0.2.0/24');
    expect(o.Length).toBe('2');
    expect(o.LbDns).toMatch(new RegExp(`^api-[0-9a-f]{10}\\.${REGION}\\.elb\\.amazonaws\\.com$`));
    expect(o).not.toHaveProperty('Skipped');
  });

  it('fails the stack when an import does not exist', async () => {
    const world = SimulatedWorld.create({ timings: { stackCreateSeconds: 10 } });
    const stacks = world.forCluster(testCluster()).stacks;
    await stacks.deploy({
      name: 'importer',
      templateBody: 'Resources:\n  T:\n    Type: AWS::SNS::Topic\nOutputs:\n  X:\n    Value: !ImportValue nope\n',
      tags: {},
    });
    world.advance(10_000);

    expect(await stacks.describe('importer')).toMatchObject({
      status: 'ROLLBACK_COMPLETE',
      reason: 'No export named nope found',
    });
  });

  it('keeps termination protection: DeleteStack on a protected stack fails until it is disabled', () => {
    const ctx = new SimContext(SimulatedWorld.create().snapshot());
    const account = ensureAccount(ctx, ACCOUNT, REGION);
    deployStack(ctx, account, { name: 'kube-1', templateBody: MAIN_TEMPLATE, tags: {} });
    advanceTo(ctx, ctx.now + 3600_000);

    expect(() => deleteStack(ctx, account, 'kube-1')).toThrow(ValidationError);
    expect(describeStack(account, 'kube-1')?.status).toBe('CREATE_COMPLETE');
    deployStack(ctx, account, {
      name: 'unprotected',
      templateBody: MAIN_TEMPLATE.replaceAll('${AWS::StackName}-sg', 'other-sg'),
      tags: {},
      terminationProtection: false,
    });
    advanceTo(ctx, ctx.now + 3600_000);
    expect(deleteStack(ctx, account, 'unprotected')).toBe('STARTED');
  });
});
