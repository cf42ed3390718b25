/**
 * What the probe deploys: the node-pool template (long-form intrinsics, JSON-compatible YAML), a short-form YAML
 * template, and how their parameters and outputs are written and read.
 */
import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import type { Parameter, Stack } from '@aws-sdk/client-cloudformation';

/** The node-pool stack most checks work on, and the two UserData versions its updates switch between. */
export const stackName = 'probe-pool';
export const userData1 = '#!/bin/bash\necho v1\n';
export const userData2 = '#!/bin/bash\necho v2\n';

/** The S3 bucket for templates passed as TemplateURL. */
export const bucket = 'clm-probe-templates';

export const params = (p: Record<string, string>): Parameter[] =>
  Object.entries(p).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }));

// The node-pool template, long-form intrinsics (JSON-compatible YAML), as the brief describes.
export const nodePoolTemplate = (instanceType = 't3.medium') => `
AWSTemplateFormatVersion: '2010-09-09'
Description: CLM probe node pool
Parameters:
  ImageId: {Type: String}
  UserData: {Type: String}
  VpcId: {Type: String}
  SubnetA: {Type: String}
  SubnetB: {Type: String}
  ConfigVersion: {Type: String, Default: 'c1'}
Resources:
  WorkerRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Version: '2012-10-17'
        Statement:
          - Effect: Allow
            Principal: {Service: [ec2.amazonaws.com]}
            Action: ['sts:AssumeRole']
      Path: /
  WorkerProfile:
    Type: AWS::IAM::InstanceProfile
    Properties:
      Path: /
      Roles: [{Ref: WorkerRole}]
  WorkerSG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: probe workers
      VpcId: {Ref: VpcId}
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: 10250, ToPort: 10250, CidrIp: 172.31.0.0/16}
  LT:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateName: {"Fn::Sub": "\${AWS::StackName}-lt"}
      LaunchTemplateData:
        ImageId: {Ref: ImageId}
        InstanceType: ${instanceType}
        UserData: {"Fn::Base64": {Ref: UserData}}
        IamInstanceProfile: {Arn: {"Fn::GetAtt": [WorkerProfile, Arn]}}
        SecurityGroupIds: [{"Fn::GetAtt": [WorkerSG, GroupId]}]
  ASG:
    Type: AWS::AutoScaling::AutoScalingGroup
    Properties:
      LaunchTemplate:
        LaunchTemplateId: {Ref: LT}
        Version: {"Fn::GetAtt": [LT, LatestVersionNumber]}
      MinSize: '2'
      MaxSize: '2'
      DesiredCapacity: '2'
      VPCZoneIdentifier: [{Ref: SubnetA}, {Ref: SubnetB}]
      Tags:
        - {Key: Name, Value: {"Fn::Sub": "\${AWS::StackName}-worker"}, PropagateAtLaunch: true}
        - {Key: kubernetes.io/cluster/probe, Value: owned, PropagateAtLaunch: true}
        - {Key: not-propagated, Value: x, PropagateAtLaunch: false}
        - {Key: clm:config-version, Value: {Ref: ConfigVersion}, PropagateAtLaunch: true}
Outputs:
  AsgName: {Value: {Ref: ASG}}
  LaunchTemplateId: {Value: {Ref: LT}}
  LatestVersion: {Value: {"Fn::GetAtt": [LT, LatestVersionNumber]}}
  DefaultVersion: {Value: {"Fn::GetAtt": [LT, DefaultVersionNumber]}}
  SecurityGroupId: {Value: {"Fn::GetAtt": [WorkerSG, GroupId]}}
  RoleArn: {Value: {"Fn::GetAtt": [WorkerRole, Arn]}}
  ProfileArn: {Value: {"Fn::GetAtt": [WorkerProfile, Arn]}}
  ProfileName: {Value: {Ref: WorkerProfile}}
`;

/** A launch template and security group in short-form YAML tags, without Parameters (`${VPC}`, `${AMI}` replaced). */
export const shortForm = `
AWSTemplateFormatVersion: '2010-09-09'
Resources:
  SG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: !Sub '\${AWS::StackName} sg'
      VpcId: '${'${VPC}'}'
  LT:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateData:
        ImageId: '${'${AMI}'}'
        InstanceType: t3.small
        UserData: !Base64 |
          #!/bin/bash
          echo short
        SecurityGroupIds: [!GetAtt SG.GroupId]
Outputs:
  LT: {Value: !Ref LT}
  Latest: {Value: !GetAtt LT.LatestVersionNumber}
  Joined: {Value: !Join ['-', [!Ref 'AWS::Region', !Select [0, !GetAZs '']]]}
`;

export function outputs(stack: Stack): Record<string, string> {
  return Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
}

export function summariseAsgInstances(g: AutoScalingGroup | undefined): string {
  return JSON.stringify(
    (g?.Instances ?? []).map((i) => ({
      id: i.InstanceId,
      az: i.AvailabilityZone,
      state: i.LifecycleState,
      health: i.HealthStatus,
      lt: i.LaunchTemplate ? `${i.LaunchTemplate.LaunchTemplateId}@${i.LaunchTemplate.Version}` : undefined,
      type: i.InstanceType,
      protected: i.ProtectedFromScaleIn,
    })),
  );
}
