import {
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplateVersionsCommand,
  type EC2Client,
} from '@aws-sdk/client-ec2';
import {
  GetInstanceProfileCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetRolePolicyCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
} from '@aws-sdk/client-iam';
import { DecryptCommand, GetKeyPolicyCommand, KMSClient } from '@aws-sdk/client-kms';
import { GetBucketPolicyCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { authorize } from '../../../lambdas/core/iam/policy-evaluation';
import { policyStatements, type NamedPolicy } from '../../../lambdas/core/iam/policy-document';
import {
  bootstrapNode,
  filesBundles,
  userDataText,
  type BootResult,
  type BootstrapEnvironment,
  type Outcome,
} from '../../../lambdas/core/nodes/node-bootstrap';

/**
 * A CLM node's bootstrap (lambdas/core/nodes/node-bootstrap.ts, the check the simulator runs) against an AWS API on an
 * emulator — moto here, MiniStack in the deployed tier: the instance's user data (DescribeInstanceAttribute) names its
 * files bundle; its launch template version names its instance profile, whose role's credentials (STS AssumeRole)
 * fetch the object and decrypt its `.enc` files. The emulators answer whoever asks, so what AWS would refuse is
 * decided here from what the account holds: the role's inline and attached policies (IAM), the bucket policy (S3),
 * the key policy (KMS), evaluated by lambdas/core/iam/policy-evaluation.ts as in the simulator.
 */

export interface BootstrapClientsOptions {
  readonly endpoint: string;
  readonly region: string;
  /** Credentials of the account the instances run in (the emulator's administrator). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** The clients the check needs, each with the account's credentials. */
export function bootstrapClients(options: BootstrapClientsOptions) {
  const config = { region: options.region, endpoint: options.endpoint, credentials: options.credentials };
  return {
    iam: new IAMClient(config),
    kms: new KMSClient(config),
    s3: new S3Client({ ...config, forcePathStyle: true }),
    sts: new STSClient(config),
    options,
  };
}
export type BootstrapClients = ReturnType<typeof bootstrapClients>;

const errorText = (error: unknown) => `${(error as Error).name}: ${(error as Error).message}`;
/**
 * A policy document as IAM returns it: URL-encoded JSON. MOTO SHIM: moto 5.2.5 returns the inline policies of roles its
 * CloudFormation made as a Python literal (`{'Version': '2012-10-17', …}`), which is read here too.
 */
export function decodePolicyDocument(document: string | undefined): unknown {
  if (!document) return undefined;
  const text = decodeURIComponent(document);
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(pythonLiteralAsJson(text));
  }
}

/** `{'a': ['b', True, None]}` → `{"a": ["b", true, null]}`: single-quoted strings (with escapes), True, False, None. */
function pythonLiteralAsJson(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      let value = '';
      for (i += 1; i < text.length && text[i] !== c; i += 1) value += text[i] === '\\' ? text[++i] : text[i];
      out += JSON.stringify(value);
    } else if (/[A-Z]/.test(c)) {
      const word = /^(True|False|None)/.exec(text.slice(i))?.[0];
      if (!word) throw new Error(`not a policy document: ${text.slice(0, 80)}`);
      out += { True: 'true', False: 'false', None: 'null' }[word];
      i += word.length - 1;
    } else out += c;
  }
  return out;
}
const decode = decodePolicyDocument;

/** Run the bootstrap of one EC2 instance. */
export async function bootstrapInstance(
  ec2: EC2Client,
  clients: BootstrapClients,
  instanceId: string,
): Promise<BootResult> {
  const userData = (
    await ec2.send(new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' }))
  ).UserData?.Value;
  const bundles = filesBundles(userDataText(userData ?? ''));
  if (bundles.length === 0) return { ok: true, bundles: [], files: 0, decrypted: 0 };
  const where = `files bundle ${bundles.map((b) => `s3://${b.bucket}/${b.key}`).join(', ')}`;
  const role = await instanceRole(ec2, clients, instanceId);
  if (typeof role === 'string') return { ok: false, reason: `${where}: ${role}` };
  return bootstrapNode(bundles, await environment(clients, role));
}

interface Role {
  readonly name: string;
  readonly arn: string;
  readonly account: string;
}

/** The role of the instance profile its launch template version names (moto leaves the instance's own unset). */
async function instanceRole(ec2: EC2Client, clients: BootstrapClients, instanceId: string): Promise<Role | string> {
  const instance = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }))).Reservations?.[0]
    ?.Instances?.[0];
  const tag = (key: string) => instance?.Tags?.find((t) => t.Key === key)?.Value;
  const [id, version] = [tag('aws:ec2launchtemplate:id'), tag('aws:ec2launchtemplate:version')];
  let profile = instance?.IamInstanceProfile?.Arn;
  if (!profile && id && version) {
    const versions = await ec2.send(
      new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: id, Versions: [version] }),
    );
    const data = versions.LaunchTemplateVersions?.[0]?.LaunchTemplateData?.IamInstanceProfile;
    profile = data?.Arn ?? data?.Name;
  }
  if (!profile) return 'the instance has no instance profile, so no credentials to fetch it with';
  const name = profile.replace(/^arn:[^:]+:iam::\d{12}:instance-profile\/(?:.*\/)?/, '');
  try {
    const found = (await clients.iam.send(new GetInstanceProfileCommand({ InstanceProfileName: name })))
      .InstanceProfile;
    const role = found?.Roles?.[0];
    if (!role?.Arn || !role.RoleName) return `its instance profile ${name} has no role`;
    return { name: role.RoleName, arn: role.Arn, account: role.Arn.split(':')[4]! };
  } catch (error) {
    return `its instance profile ${name} cannot be read: ${errorText(error)}`;
  }
}

/** The role's inline and attached managed policies. */
async function identityPolicies(iam: IAMClient, role: Role): Promise<NamedPolicy[]> {
  const policies: NamedPolicy[] = [];
  for (const policyName of (await iam.send(new ListRolePoliciesCommand({ RoleName: role.name }))).PolicyNames ?? []) {
    const doc = (await iam.send(new GetRolePolicyCommand({ RoleName: role.name, PolicyName: policyName })))
      .PolicyDocument;
    policies.push({
      name: `inline policy ${policyName} of role ${role.name}`,
      statements: policyStatements(decode(doc)),
    });
  }
  const attached =
    (await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: role.name }))).AttachedPolicies ?? [];
  for (const { PolicyArn } of attached) {
    const policy = (await iam.send(new GetPolicyCommand({ PolicyArn }))).Policy;
    const version = await iam.send(new GetPolicyVersionCommand({ PolicyArn, VersionId: policy?.DefaultVersionId }));
    policies.push({
      name: `managed policy ${PolicyArn}`,
      statements: policyStatements(decode(version.PolicyVersion?.Document)),
    });
  }
  return policies;
}

async function environment(clients: BootstrapClients, role: Role): Promise<BootstrapEnvironment> {
  const identity = await identityPolicies(clients.iam, role);
  const caller = { arn: role.arn, account: role.account };
  const assumed = (
    await clients.sts.send(new AssumeRoleCommand({ RoleArn: role.arn, RoleSessionName: 'node-bootstrap' }))
  ).Credentials!;
  const credentials = {
    accessKeyId: assumed.AccessKeyId!,
    secretAccessKey: assumed.SecretAccessKey!,
    sessionToken: assumed.SessionToken!,
  };
  const { endpoint, region } = clients.options;
  const asRole = {
    s3: new S3Client({ region, endpoint, credentials, forcePathStyle: true }),
    kms: new KMSClient({ region, endpoint, credentials }),
  };
  const denied = (reason: string): Outcome<Uint8Array> => ({ ok: false, reason: `AccessDenied: ${reason}` });
  return {
    async fetch(bucket, key) {
      let policy: unknown;
      try {
        policy = JSON.parse((await clients.s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))).Policy ?? 'null');
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'NoSuchBucket') return { ok: false, reason: `NoSuchBucket: no bucket ${bucket} exists` };
        if (name !== 'NoSuchBucketPolicy') return { ok: false, reason: errorText(error) };
      }
      const decision = authorize(
        { caller, action: 's3:GetObject', resource: `arn:aws:s3:::${bucket}/${key}`, resourceAccount: role.account },
        {
          identity,
          ...(policy
            ? { resource: { name: `the bucket policy of ${bucket}`, statements: policyStatements(policy) } }
            : {}),
        },
      );
      if (!decision.allowed) return denied(decision.reason);
      try {
        const out = await asRole.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return { ok: true, value: await out.Body!.transformToByteArray() };
      } catch (error) {
        return { ok: false, reason: errorText(error) };
      }
    },
    async decrypt(ciphertext) {
      let out;
      try {
        out = await asRole.kms.send(new DecryptCommand({ CiphertextBlob: ciphertext }));
      } catch (error) {
        return { ok: false, reason: errorText(error) };
      }
      const keyArn = out.KeyId!;
      const keyPolicy = (await clients.kms.send(new GetKeyPolicyCommand({ KeyId: keyArn, PolicyName: 'default' })))
        .Policy;
      const decision = authorize(
        { caller, action: 'kms:Decrypt', resource: keyArn, resourceAccount: keyArn.split(':')[4]! },
        {
          identity,
          keyPolicyRequired: true,
          ...(keyPolicy
            ? { resource: { name: `the key policy of ${keyArn}`, statements: policyStatements(keyPolicy) } }
            : {}),
        },
      );
      return decision.allowed ? { ok: true, value: out.Plaintext! } : denied(decision.reason);
    },
  };
}
