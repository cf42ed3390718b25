import { gunzipSync } from 'node:zlib';
import { filesBundles, userDataText } from '../../core/nodes/node-bootstrap';
import { hashOf, hashValue } from '../hash';
import type { Props, Provisioned, ResourceScope } from './cfn-resource-scope';
import { upperId } from './cfn-resource-scope';

/**
 * `AWS::EC2::LaunchTemplate`: a real launch template in the account; an update whose data differs adds a version
 * and makes it the default, as CloudFormation does. A new name replaces the template.
 */
export function launchTemplateResource(scope: ResourceScope, props: Props): Provisioned {
  const { account, previous } = scope;
  const name =
    typeof props.LaunchTemplateName === 'string'
      ? props.LaunchTemplateName
      : `${scope.logicalId}-${upperId([scope.stack.stackId, scope.logicalId], 12)}`;
  const reuse =
    previous && account.launchTemplates[previous.physicalId]?.name === name
      ? account.launchTemplates[previous.physicalId]
      : undefined;
  if (previous && !reuse) delete account.launchTemplates[previous.physicalId];
  const data = (props.LaunchTemplateData ?? {}) as Props;
  const market = (data.InstanceMarketOptions as Props | undefined)?.MarketType;
  const profile = data.IamInstanceProfile as Props | undefined;
  const instanceProfile = profile?.Arn ?? profile?.Name;
  const bundles = typeof data.UserData === 'string' ? filesBundles(userDataText(data.UserData)) : [];
  const version = {
    dataHash: hashValue(data),
    instanceType: typeof data.InstanceType === 'string' ? data.InstanceType : undefined,
    spot: market === 'spot',
    ...kubeletOf(data.UserData),
    ...(typeof instanceProfile === 'string' ? { instanceProfile } : {}),
    ...(bundles.length ? { bundles } : {}),
  };
  const template = reuse ?? {
    id: `lt-${hashOf([account.key, scope.stack.stackId, scope.logicalId, name], 17)}`,
    name,
    versions: [],
    defaultVersion: 1,
  };
  const latest = template.versions[template.versions.length - 1];
  if (!latest || latest.dataHash !== version.dataHash) {
    template.versions.push({ number: (latest?.number ?? 0) + 1, ...version });
    template.defaultVersion = (latest?.number ?? 0) + 1;
  }
  account.launchTemplates[template.id] = template;
  const newest = String(template.versions[template.versions.length - 1].number);
  return {
    physicalId: template.id,
    attributes: {
      LaunchTemplateId: template.id,
      LatestVersionNumber: newest,
      DefaultVersionNumber: String(template.defaultVersion),
    },
  };
}

/**
 * The kubelet a launch template's nodes run: the `KUBERNETES_VERSION=1.30.5` line of its user data (base64, gzipped
 * or not, as the node pools render it). Nodes launched from it report that version as status.nodeInfo.kubeletVersion.
 */
export function kubeletOf(userData: unknown): { kubeletVersion?: string; kubeletFlags?: KubeletFlags } {
  if (typeof userData !== 'string' || userData === '') return {};
  let bytes = Buffer.from(userData, 'base64');
  try {
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  } catch {
    return {};
  }
  const text = bytes.toString('utf8');
  const match = /KUBERNETES_VERSION=v?(\d+\.\d+\.\d+)/.exec(text);
  const labels = /^\s*NODE_LABELS=(.*)$/m.exec(text)?.[1]?.trim();
  const taints = /^\s*NODE_TAINTS=(.*)$/m.exec(text)?.[1]?.trim();
  const flags = { ...(labels ? { labels } : {}), ...(taints ? { taints } : {}) };
  return {
    ...(match ? { kubeletVersion: `v${match[1]}` } : {}),
    ...(Object.keys(flags).length ? { kubeletFlags: flags } : {}),
  };
}

/** What the kubelet registers its Node with: `--node-labels` and `--register-with-taints` (NODE_LABELS=, NODE_TAINTS=). */
export interface KubeletFlags {
  /** `k=v,k2=v2` */
  readonly labels?: string;
  /** `k=v:Effect,k2=:Effect` */
  readonly taints?: string;
}
