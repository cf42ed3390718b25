/**
 * The cluster's nodes in the deployed tier: what AWS and the kubelets do on their own, played by the integration
 * suite's harness. Each EC2 instance of the cluster's groups joins as a KWOK node once it ran a CLM node's bootstrap
 * as its role — its files bundle fetched from the emulator's S3 and its secrets decrypted with its KMS, as the
 * account's policies allow — and leaves with its instance; nodes keep their leases, PDBs are watched during rolls;
 * static volumes stand in for a storage driver.
 */
import type { BootResult } from '../../../lambdas/core/nodes/node-bootstrap';
import type { KubeCluster } from '../../../lambdas/ports/kube-cluster';
import { bootstrapClients } from '../../integration/support/aws-node-bootstrap';
import { E2eHarness } from '../../integration/support/e2e-harness';
import { staticVolumes } from '../../integration/support/kubelet-stand-ins';
import { NodeConditions } from '../../integration/support/node-conditions';
import { CLM_ACCOUNT, REGION, type DeployedEnvironment, type EmulatorClients } from './deployed-environment';

/** Starts the harness of cluster `clusterId` (of the CLM account, local id `localId`): nodes join after their boot. */
export async function startDeployedNodes(
  env: DeployedEnvironment,
  aws: EmulatorClients,
  kube: KubeCluster,
  clusterId: string,
  localId: string,
): Promise<E2eHarness> {
  await staticVolumes(kube, `${localId}-pv`, 4);
  const harness = new E2eHarness(aws, kube, `kubernetes.io/cluster/${clusterId}`, 'nodepool-', {
    motoShims: false,
    bootstrap: {
      clients: bootstrapClients({
        endpoint: env.endpoint,
        region: REGION,
        credentials: { accessKeyId: CLM_ACCOUNT, secretAccessKey: 'test' },
      }),
      conditions: new NodeConditions(env.kubeconfig),
    },
  });
  harness.start();
  return harness;
}

/**
 * How the harness's boots went (those of instances not in `before`): those that fetched one bundle of `localId` from
 * CLM's bucket of the account (`cluster-lifecycle-manager-<account>-<region>/<local_id>/<master|worker>/<sha512>.userdata`)
 * and decrypted its secret, and the others as they were.
 */
export function bootedFromBundles(
  harness: E2eHarness,
  localId: string,
  before: ReadonlySet<string> = new Set(),
): { booted: number; failed: string[] } {
  const bundle = new RegExp(
    `^s3://cluster-lifecycle-manager-${CLM_ACCOUNT}-${REGION}/${localId}/(master|worker)/[0-9a-f]{128}\\.userdata$`,
  );
  const boots = [...harness.joiner.boots].filter(([id]) => !before.has(id)).map(([, boot]) => boot);
  const good = (boot: BootResult) =>
    boot.ok && boot.bundles.length === 1 && bundle.test(boot.bundles[0]!) && boot.decrypted === 1;
  return {
    booted: boots.filter(good).length,
    failed: boots.filter((boot) => !good(boot)).map((boot) => JSON.stringify(boot)),
  };
}
