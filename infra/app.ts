/**
 * The CDK app: `npx cdk synth` (cdk.json runs `npx tsx infra/app.ts`). Settings come from context or the
 * environment (infra/app-config.ts); the account and region from the CLI profile when there is one, otherwise the
 * stacks stay environment-agnostic, so synth needs no credentials.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { readAppConfig } from './app-config';
import { readFleetConfig } from './fleet-config';
import { readClusterAccessConfig } from './cluster-access-config';
import { ClmNagChecks } from './nag';
import { ClmClusterAccessStack } from './stacks/clm-cluster-access-stack';
import { ClmStatefulStack } from './stacks/clm-stateful-stack';
import { ClmWorkflowStack } from './stacks/clm-workflow-stack';

const app = new App();
// The workflow stack imports the table and bucket by export; "strong" keeps CloudFormation from deleting an export
// that is still in use (and silences CDK's "no strength configured" warning).
if (app.node.tryGetContext('@aws-cdk/core:defaultCrossStackReferences') === undefined) {
  app.node.setContext('@aws-cdk/core:defaultCrossStackReferences', 'strong');
}
const config = readAppConfig((key) => app.node.tryGetContext(key));
const fleet = readFleetConfig((key) => app.node.tryGetContext(key));
const access = readClusterAccessConfig((key) => app.node.tryGetContext(key));
const env =
  process.env.CDK_DEFAULT_ACCOUNT && process.env.CDK_DEFAULT_REGION
    ? { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION }
    : undefined;

const stateful = new ClmStatefulStack(app, 'ClmStateful', {
  env,
  description: 'CLM: progress table and artefact bucket (retained)',
});
new ClmWorkflowStack(app, 'ClmWorkflow', {
  env,
  description:
    'CLM: cluster-update and node-pool-rollout state machines and their tasks, the webhook, the dispatcher and its triggers',
  table: stateful.table,
  artifactBucket: stateful.artifactBucket,
  registryUri: config.registryUri,
  configSources: config.configSources,
  assumedRoleName: config.assumedRoleName,
  clusterAccountIds: access.clusterAccountIds,
  organizationId: access.organizationId,
  externalId: access.externalId,
  clusterStackNamePatterns: access.clusterStackNamePatterns,
  clusterResourceNamePatterns: access.clusterResourceNamePatterns,
  sharedStackNamePatterns: access.sharedStackNamePatterns,
  clusterTokenSecretPrefix: access.clusterTokenSecretPrefix,
  tokenSecretArn: config.tokenSecretArn,
  dispatchIntervalMinutes: fleet.dispatchIntervalMinutes,
  webhookSecretArn: fleet.webhookSecretArn,
  forgeSecretArn: fleet.forgeSecretArn,
  githubApiUrl: fleet.githubApiUrl,
  alarmEmail: fleet.alarmEmail,
  fleetSettings: fleet.fleetSettings,
  ...(fleet.rollReservedConcurrency !== undefined ? { rollReservedConcurrency: fleet.rollReservedConcurrency } : {}),
});

// Into each cluster account, with that account's credentials: `cdk deploy ClmClusterAccess -c clmAccountId=... -c
// externalId=...` (docs/deploying-into-your-organisation.md). Defined only when clmAccountId is set.
if (access.clmAccountId) {
  if (!access.externalId)
    throw new Error('ClmClusterAccess needs externalId (context or CLM_EXTERNAL_ID): the access role requires one');
  new ClmClusterAccessStack(app, 'ClmClusterAccess', {
    env,
    description: 'CLM: the role CLM assumes in this cluster account, and the bounded CloudFormation role of its stacks',
    clmAccountId: access.clmAccountId,
    externalId: access.externalId,
    organizationId: access.organizationId,
    ...(config.assumedRoleName ? { roleName: config.assumedRoleName } : {}),
    stackNamePatterns: access.clusterStackNamePatterns,
    ...(access.clusterResourceNamePatterns ? { resourceNamePatterns: access.clusterResourceNamePatterns } : {}),
    ...(access.sharedStackNamePatterns ? { sharedStackNamePatterns: access.sharedStackNamePatterns } : {}),
  });
}

Tags.of(app).add('app', 'clm');
// cdk-nag AwsSolutions; every acknowledged finding is justified in infra/nag.ts or next to its resource.
Validations.of(app).addPlugins(new ClmNagChecks(app, { verbose: true }));
app.synth();
