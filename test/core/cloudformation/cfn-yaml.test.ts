import { parseCfnTemplate } from '../../../lambdas/core/cloudformation/cfn-yaml';
import { ConfigError } from '../../../lambdas/shared/errors';

describe('parseCfnTemplate', () => {
  it('turns every short-form intrinsic tag into its long form', () => {
    // Arrange
    const text = [
      'Conditions:',
      '  IsProd: !Equals [!Ref Env, production]',
      '  NotProd: !Not [!Condition IsProd]',
      '  Both: !And [!Condition IsProd, !Or [!Condition IsProd, !Condition NotProd]]',
      'Resources:',
      '  Thing:',
      '    Properties:',
      '      A: !Ref Bucket',
      '      B: !GetAtt LaunchTemplate.LatestVersionNumber',
      '      C: !GetAtt [Role, Arn]',
      '      D: !Sub "arn:aws:iam::${AWS::AccountId}:root"',
      '      E: !Sub ["${x}-y", {x: !Ref Name}]',
      '      F: !Join [",", [a, b]]',
      '      G: !If [IsProd, big, small]',
      '      H: !Select [0, !GetAZs ""]',
      '      I: !Split [",", "a,b"]',
      '      J: !FindInMap [Map, !Ref "AWS::Region", ami]',
      '      K: !Base64 "hello"',
      '      L: !ImportValue cluster-worker-sg',
      '      M: !GetAZs',
      '      N: !Base64 {"Fn::Join": ["", [a]]}',
    ].join('\n');

    // Act
    const template = parseCfnTemplate(text, 'main/cluster/cluster.yaml')!;

    // Assert
    expect(template.Conditions).toEqual({
      IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'production'] },
      NotProd: { 'Fn::Not': [{ Condition: 'IsProd' }] },
      Both: { 'Fn::And': [{ Condition: 'IsProd' }, { 'Fn::Or': [{ Condition: 'IsProd' }, { Condition: 'NotProd' }] }] },
    });
    expect((template.Resources as any).Thing.Properties).toEqual({
      A: { Ref: 'Bucket' },
      B: { 'Fn::GetAtt': ['LaunchTemplate', 'LatestVersionNumber'] },
      C: { 'Fn::GetAtt': ['Role', 'Arn'] },
      D: { 'Fn::Sub': 'arn:aws:iam::${AWS::AccountId}:root' },
      E: { 'Fn::Sub': ['${x}-y', { x: { Ref: 'Name' } }] },
      F: { 'Fn::Join': [',', ['a', 'b']] },
      G: { 'Fn::If': ['IsProd', 'big', 'small'] },
      H: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] },
      I: { 'Fn::Split': [',', 'a,b'] },
      J: { 'Fn::FindInMap': ['Map', { Ref: 'AWS::Region' }, 'ami'] },
      K: { 'Fn::Base64': 'hello' },
      L: { 'Fn::ImportValue': 'cluster-worker-sg' },
      M: { 'Fn::GetAZs': '' },
      N: { 'Fn::Base64': { 'Fn::Join': ['', ['a']] } },
    });
  });

  it('splits a scalar !GetAtt at the first dot only (nested attributes keep theirs)', () => {
    const template = parseCfnTemplate('X: !GetAtt Db.Endpoint.Address', 'f.yaml')!;
    expect(template.X).toEqual({ 'Fn::GetAtt': ['Db', 'Endpoint.Address'] });
  });

  it('accepts JSON templates', () => {
    expect(parseCfnTemplate('{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}}', 'f.json')).toEqual({
      Resources: { T: { Type: 'AWS::SNS::Topic' } },
    });
  });

  it('gives undefined for an empty render (only comments or blank)', () => {
    expect(parseCfnTemplate('# nothing for this cluster\n\n', 'f.yaml')).toBeUndefined();
  });

  it('fails with the file and line of a YAML syntax error', () => {
    const act = () => parseCfnTemplate('Resources:\n  A: [1, 2\n  B: x\n', 'main/cluster/cf-manifests/broken.yaml');
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(/^main\/cluster\/cf-manifests\/broken\.yaml:\d+: invalid YAML/);
  });

  it('fails when the template is not a mapping', () => {
    expect(() => parseCfnTemplate('- a\n- b\n', 'x.yaml')).toThrow(
      'x.yaml: a CloudFormation template must be a YAML mapping',
    );
  });
});
