// aws:kms: config items are decrypted for the templates only: what RenderConfig and RenderClusterResources
// store in the artefact store (S3) keeps them encrypted.
import { HandlebarsTemplateEngine } from '../../lambdas/adapters/templating/handlebars-template-engine';
import { StaticValuesProvider } from '../../lambdas/adapters/values/static-values-provider';
import { getArtifact } from '../../lambdas/tasks/step/artifacts';
import { MainArtifact } from '../../lambdas/contracts/artifacts';
import { prepare } from '../../lambdas/tasks/prepare';
import { renderClusterResources } from '../../lambdas/tasks/render-cluster-resources';
import { renderConfig } from '../../lambdas/tasks/render-config';
import type { ClusterPorts, Ports } from '../../lambdas/ports/ports';
import { fakeEnv, testCluster } from '../support/fakes';

const SECRET = 's3cr3t-plaintext';
const CIPHERTEXT = Buffer.from(SECRET).toString('base64');

describe('RenderConfig and RenderClusterResources with aws:kms: items', () => {
  it('render templates with the plaintext but store only the ciphertext', async () => {
    // Arrange: a registry item and a default, both encrypted; a manifest and the main stack use them
    const cluster = testCluster({ configItems: { db_password: `aws:kms:${CIPHERTEXT}` }, nodePools: [] });
    const env = fakeEnv({ clusters: [cluster] });
    Object.assign(env.source.files, {
      'cluster/cluster.yaml':
        'Resources:\n  Topic: {Type: AWS::SNS::Topic, Properties: {TopicName: "{{Cluster.ConfigItems.db_password}}"}}\n',
      'cluster/config-defaults.yaml': `api_key: aws:kms:${CIPHERTEXT}\n`,
      'cluster/manifests/app/secret.yaml':
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  key: "{{Cluster.ConfigItems.api_key}}"\n',
    });
    let decrypts = 0;
    const clusterPorts = { ...env.ports.forCluster(cluster), values: new StaticValuesProvider() } as ClusterPorts;
    const ports: Ports = {
      ...env.ports,
      templates: new HandlebarsTemplateEngine(),
      secrets: {
        decrypt: async (ciphertext) => {
          decrypts++;
          return Buffer.from(ciphertext, 'base64').toString('utf8');
        },
      },
      forCluster: () => clusterPorts,
    };
    const run = await prepare(
      { clusterId: cluster.id, action: 'provision', options: { applyOnly: false }, trigger: 'test' },
      'exec-1',
      ports,
    );
    const ref = { clusterId: cluster.id, targetVersion: run.targetVersion, holder: 'exec-1' };

    // Act
    const main = await renderConfig(ref, ports);
    const resources = await renderClusterResources(ref, { applyOnly: false }, ports);

    // Assert: the templates saw the plaintext...
    const mainArtifact = await getArtifact(env.artifacts, main.artifactKey, MainArtifact);
    expect(mainArtifact.mainStack.template).toContain(SECRET);
    const stored = await env.artifacts.get(resources.artifactKey);
    expect(stored).toContain(SECRET); // the rendered manifest carries it, as it must to be applied
    // ...but the stored config items keep every aws:kms: value encrypted
    expect(mainArtifact.configItems).toMatchObject({
      db_password: `aws:kms:${CIPHERTEXT}`,
      api_key: `aws:kms:${CIPHERTEXT}`,
    });
    expect(JSON.stringify(mainArtifact.configItems)).not.toContain(SECRET);
    expect(decrypts).toBe(4); // two items, decrypted once by each of the two steps
  });
});
