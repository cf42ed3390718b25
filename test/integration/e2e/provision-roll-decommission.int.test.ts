import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeSecurityGroupsCommand } from '@aws-sdk/client-ec2';
import { DescribeLoadBalancersCommand as DescribeClassicLoadBalancersCommand } from '@aws-sdk/client-elastic-load-balancing';
import { DescribeLoadBalancersCommand, DescribeTargetGroupsCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createAwsClients, type AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { CloudFormationStackDeployer } from '../../../lambdas/adapters/aws/cloudformation-stack-deployer';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { E2eHarness } from '../support/e2e-harness';
import { integrationEnvironment, MOTO_CREDENTIALS, REGION, resetMoto } from '../support/environment';
import { EXAMPLE_CLUSTER, exampleConfigForIntegration, REPO_ROOT } from '../support/example-config';
import { eventually } from '../support/eventually';
import { createKubernetesLoadBalancers } from '../support/kubernetes-load-balancers';
import { staticVolumes } from '../support/kubelet-stand-ins';
import { startMotoUpdateProxy, type MotoUpdateProxy } from '../support/moto-update-proxy';
import { bootstrapClients } from '../support/aws-node-bootstrap';
import { revokeFromRole } from '../support/iam-policies';
import { NodeConditions } from '../support/node-conditions';
import { importCertificateFor } from '../support/test-certificates';
import { runClm } from '../support/clm-child';

// `clm provision` / `clm decommission` as a user runs them (a child process, no --simulate) against moto and the
// real control plane, while the harness plays AWS's and the kubelets' part (test/integration/support/e2e-harness.ts).
const env = integrationEnvironment();
const kube = new ClientNodeKubeCluster({ kubeconfigPath: env.kubeconfig });
const CLUSTER_TAG = `kubernetes.io/cluster/${EXAMPLE_CLUSTER}`;
const BUCKET = 'clm-e2e-artifacts';
let clients: AwsClients;
let harness: E2eHarness;
let configDir: string;
let stateDir: string;
let registryFile: string;
let proxy: MotoUpdateProxy;
/** The private CA of the API server's certificate imported into ACM: the CLI trusts it (NODE_EXTRA_CA_CERTS). */
let caFile: string;
const FILES_BUCKET = 'cluster-lifecycle-manager-123456789012-eu-central-1';

interface Summary {
  readonly clusters: {
    id: string;
    status: string;
    version: string;
    message: string;
    nodesReplaced: number;
    stacks: { name: string; status: string }[];
    problems: { title: string }[];
    leftovers?: { deleted: string[]; kept: string[]; remaining: string[]; unchecked: string[] };
  }[];
}

function clm(verb: 'provision' | 'decommission' | 'plan') {
  return runClm<Summary>(verb, {
    registryFile,
    configDir,
    stateDir,
    cluster: EXAMPLE_CLUSTER,
    kubeconfig: env.kubeconfig,
    bucket: BUCKET,
    endpoint: proxy.endpoint,
    caFile,
  });
}

beforeAll(async () => {
  await resetMoto(env.awsEndpoint);
  clients = createAwsClients({ region: REGION, endpoint: env.awsEndpoint, credentials: MOTO_CREDENTIALS });
  await clients.s3.send(
    new CreateBucketCommand({ Bucket: BUCKET, CreateBucketConfiguration: { LocationConstraint: REGION } }),
  );
  caFile = (await importCertificateFor(clients.acm, 'kube-test.test.example.org')).caFile;
  configDir = exampleConfigForIntegration();
  stateDir = mkdtempSync(join(tmpdir(), 'clm-e2e-state-'));
  registryFile = join(stateDir, 'clusters.yaml');
  // The kubeconfig of the local control plane names its context clm-integration: the cluster chooses it.
  const examples = readFileSync(join(REPO_ROOT, 'examples', 'clusters.yaml'), 'utf8');
  const withContext = examples.replace(
    'config_items:\n      team: platform\n',
    'config_items:\n      kube_context: clm-integration\n      team: platform\n',
  );
  expect(withContext).not.toBe(examples);
  writeFileSync(registryFile, withContext);
  await staticVolumes(kube, 'kube-test-pv', 4);
  proxy = await startMotoUpdateProxy(env.awsEndpoint, clients);
  harness = new E2eHarness(clients, kube, CLUSTER_TAG, 'nodepool-', {
    bootstrap: {
      clients: bootstrapClients({ endpoint: env.awsEndpoint, region: REGION, credentials: MOTO_CREDENTIALS }),
      conditions: new NodeConditions(env.kubeconfig),
    },
  });
  harness.start();
});

afterAll(async () => {
  await harness?.stop();
  await proxy?.close();
});

describe('clm provision / decommission against moto + a real control plane', () => {
  it('brings kube-test from nothing to ready: stacks, nodes joined, manifests applied, workloads running', async () => {
    const { code, summary, output } = await clm('provision');
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    expect(summary?.clusters[0]).toMatchObject({ id: EXAMPLE_CLUSTER, status: 'succeeded', problems: [] });
    const stacks = await new CloudFormationStackDeployer(clients.cloudFormation).list({
      [`kubernetes.io/cluster/${EXAMPLE_CLUSTER}`]: '*',
    });
    expect(stacks.length).toBeGreaterThan(0);
    // Each instance joins once it has fetched and decrypted its files bundle (the harness's bootstrap check)
    const nodes = await eventually('both workers joined and Ready', async () => {
      const all = await kube.listNodes();
      const workers = all.filter((n) => n.labels['node.kubernetes.io/node-pool'] === 'default-worker' && n.ready);
      return workers.length === 2 ? all : undefined;
    });
    await eventually(
      'web pods running',
      async () =>
        (await kube.listPods({ namespace: 'web' })).filter((p) => p.phase === 'Running' && p.ready).length === 2,
      60_000,
    );
    // Every node joined only after it fetched its bundle from CLM's bucket in the cluster account and decrypted it
    const boots = [...harness.joiner.boots.values()];
    expect(boots).toHaveLength(nodes!.filter((n) => n.labels['clm-integration/joined'] === 'true').length);
    for (const boot of boots)
      expect(boot).toMatchObject({
        ok: true,
        bundles: [
          expect.stringMatching(
            new RegExp(`^s3://${FILES_BUCKET}/kube-test/(master|worker)/[0-9a-f]{128}\\.userdata$`),
          ),
        ],
        decrypted: 1,
      });
    expect(harness.errors).toEqual([]);
  }, 900_000);

  it('plans a node-pool change with no write to moto or the API server (change sets and dry runs only)', async () => {
    const registry = readFileSync(registryFile, 'utf8');
    const changed = registry.replace('instance_types: [m6i.large, m5.large]', 'instance_types: [m5.large]');
    expect(changed).not.toBe(registry);
    const versions = async () => {
      const objects = await Promise.all(
        ['Deployment', 'Service', 'ConfigMap', 'PodDisruptionBudget', 'DaemonSet', 'Namespace'].map((kind) =>
          kube.list(kind),
        ),
      );
      return (
        objects
          .flat()
          // What an apply could change (labels, annotations, spec, data); not status or resourceVersion, which the
          // controllers move on their own (a Deployment's or PDB's status).
          .map((o) => {
            const { labels, annotations } = o.metadata;
            const body = o as unknown as { spec?: unknown; data?: unknown };
            return `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name} ${JSON.stringify({ labels, annotations, spec: body.spec, data: body.data })}`;
          })
          .sort()
      );
    };
    const before = await versions();
    const calls = proxy.requests.length;
    writeFileSync(registryFile, changed);
    try {
      const { code, output } = await clm('plan');
      expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
      const plan = JSON.parse(output.slice(output.indexOf('{\n'), output.lastIndexOf('}') + 1)) as {
        clusters: { pools: { pool: string; nodes: number }[] }[];
      };
      expect(plan.clusters[0]?.pools.filter((p) => p.nodes > 0).map((p) => p.pool)).toEqual(['default-worker']);
    } finally {
      writeFileSync(registryFile, registry);
    }
    // Reads, and change sets created, described and deleted (never executed); S3 only read; no object changed
    const writes = proxy.requests
      .slice(calls)
      .filter(
        (r) =>
          !/^(Describe|List|Get)|^(CreateChangeSet|DeleteChangeSet)$|^(GET|HEAD) /.test(r) && r !== 'ValidateTemplate',
      );
    expect(writes).toEqual([]);
    expect(await versions()).toEqual(before);
  }, 600_000);

  it('rolls the worker pool after a node-pool change through the eviction API without violating a PDB', async () => {
    const workerNodes = async () =>
      (await kube.listNodes())
        .filter((n) => n.labels['node.kubernetes.io/node-pool'] === 'default-worker')
        .map((n) => n.name)
        .sort();
    const before = await workerNodes();
    const booted = new Set(harness.joiner.boots.keys());
    // The registry changes the worker pool's instance types: a new launch-template version for that pool only.
    const registry = readFileSync(registryFile, 'utf8');
    const changed = registry.replace('instance_types: [m6i.large, m5.large]', 'instance_types: [m5.large]');
    expect(changed).not.toBe(registry);
    writeFileSync(registryFile, changed);
    harness.watchPdbs = true;
    const { code, summary, output } = await clm('provision');
    harness.watchPdbs = false;
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    expect(summary?.clusters[0]?.status).toBe('succeeded');
    expect(proxy.propagated).toContain('nodepool-default-worker-aws-123456789012-eu-central-1-kube-test');
    expect(summary?.clusters[0]?.nodesReplaced).toBe(before.length);
    // The harness removes a terminated instance's node on its next pass (it plays the cloud controller), so the
    // last replaced node may still be listed for a moment after clm returns: wait for the pool to settle.
    await eventually(
      'the old worker nodes removed',
      async () => (await workerNodes()).filter((n) => before.includes(n)).length === 0,
      60_000,
    );
    const after = await workerNodes();
    expect(after).toHaveLength(before.length);
    expect(after.filter((n) => before.includes(n))).toEqual([]);
    // the replacements fetched and decrypted their bundle before they joined
    const fresh = [...harness.joiner.boots].filter(([id]) => !booted.has(id)).map(([, boot]) => boot);
    expect(fresh.length).toBeGreaterThanOrEqual(before.length);
    for (const boot of fresh) expect(boot).toMatchObject({ ok: true, decrypted: 1 });
    expect([...harness.pdbViolations]).toEqual([]);
    expect(harness.errors).toEqual([]);
  }, 1_800_000);

  it('holds a roll at the health gate while the pool role may not read its bundle, and fails naming why', async () => {
    // The worker role loses its read of the files bundle (an operator's change to its policy), and the pool changes
    const iam = bootstrapClients({ endpoint: env.awsEndpoint, region: REGION, credentials: MOTO_CREDENTIALS }).iam;
    const restore = await revokeFromRole(iam, 'kube-test-worker', 's3:GetObject');
    const registry = readFileSync(registryFile, 'utf8');
    const changed = registry
      .replace('instance_types: [m5.large]', 'instance_types: [m6i.large]')
      .replace('kube_context: clm-integration\n', 'kube_context: clm-integration\n      update_health_timeout: 20s\n');
    expect(changed).not.toBe(registry);
    writeFileSync(registryFile, changed);
    try {
      const { code, summary } = await clm('provision');
      expect(code).not.toBe(0);
      expect(summary?.clusters[0]?.problems.map((p) => p.title)).toEqual([
        expect.stringMatching(
          new RegExp(
            `health gate: new node ip-i-[0-9a-f]+ is NotReady \\(FilesBundleUnavailable: files bundle s3://${FILES_BUCKET}/kube-test/worker/[0-9a-f]{128}\\.userdata: AccessDenied: s3:GetObject .*no policy of arn:aws:iam::123456789012:role/kube-test-worker allows it`,
          ),
        ),
      ]);
      expect(summary?.clusters[0]?.nodesReplaced).toBe(0);
    } finally {
      await restore();
      writeFileSync(registryFile, registry);
    }
    const denied = [...harness.joiner.boots.values()].filter((boot) => !boot.ok);
    expect(denied.length).toBeGreaterThan(0);
    expect(harness.errors).toEqual([]);
  }, 900_000);

  it("decommission removes every stack of the cluster and the load balancers Kubernetes made for it, not another cluster's", async () => {
    // Arrange: what the cloud provider / load balancer controller leave, for this cluster and for another one
    const ours = await createKubernetesLoadBalancers(clients, EXAMPLE_CLUSTER, 'k8s-ours');
    const theirs = await createKubernetesLoadBalancers(clients, 'aws:123456789012:eu-central-1:other', 'k8s-theirs');

    // Act
    const { code, summary, output } = await clm('decommission');

    // Assert
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    const deployer = new CloudFormationStackDeployer(clients.cloudFormation);
    expect(await deployer.list({ [`kubernetes.io/cluster/${EXAMPLE_CLUSTER}`]: '*' })).toEqual([]);
    expect(summary?.clusters[0]?.leftovers?.deleted).toEqual(
      expect.arrayContaining([
        `classic-load-balancer ${ours.classic}`,
        `load-balancer ${ours.alb}`,
        `target-group ${ours.targetGroup}`,
        `security-group ${ours.securityGroup}`,
        `security-group ${ours.albSecurityGroup}`,
      ]),
    );
    expect(summary?.clusters[0]?.leftovers).toMatchObject({ remaining: [], unchecked: [] });
    const classics = (await clients.elb.send(new DescribeClassicLoadBalancersCommand({}))).LoadBalancerDescriptions;
    expect(classics?.map((lb) => lb.LoadBalancerName)).toEqual([theirs.classic]);
    const albs = (await clients.elbv2.send(new DescribeLoadBalancersCommand({}))).LoadBalancers;
    expect(albs?.map((lb) => lb.LoadBalancerName)).toEqual([theirs.alb]);
    const groups = (await clients.elbv2.send(new DescribeTargetGroupsCommand({}))).TargetGroups;
    expect(groups?.map((tg) => tg.TargetGroupName)).toEqual([theirs.targetGroup]);
    const sgs = await clients.ec2.send(
      new DescribeSecurityGroupsCommand({
        Filters: [
          {
            Name: 'group-id',
            Values: [ours.securityGroup, ours.albSecurityGroup, theirs.securityGroup, theirs.albSecurityGroup],
          },
        ],
      }),
    );
    expect(sgs.SecurityGroups?.map((g) => g.GroupId).sort()).toEqual(
      [theirs.securityGroup, theirs.albSecurityGroup].sort(),
    );
  }, 900_000);
});
