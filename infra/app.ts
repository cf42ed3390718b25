/**
 * The CDK app: `npx cdk synth` (cdk.json runs `npx tsx infra/app.ts`). Settings come from context or the
 * environment (infra/app-config.ts); the account and region from the CLI profile when there is one, otherwise the
 * stacks stay environment-agnostic, so synth needs no credentials.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { readAppConfig } from './app-config';
import { ClmNagChecks } from './nag';
import { ClmStatefulStack } from './stacks/clm-stateful-stack';
import { ClmWorkflowStack } from './stacks/clm-workflow-stack';

const app = new App();
// The workflow stack imports the table and bucket by export; "strong" keeps CloudFormation from deleting an export
// that is still in use (and silences CDK's "no strength configured" warning).
if (app.node.tryGetContext('@aws-cdk/core:defaultCrossStackReferences') === undefined) {
  app.node.setContext('@aws-cdk/core:defaultCrossStackReferences', 'strong');
}
const config = readAppConfig((key) => app.node.tryGetContext(key));
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
  description: 'CLM: cluster-update and node-pool-rollout state machines and their tasks',
  table: stateful.table,
  artifactBucket: stateful.artifactBucket,
  registryUri: config.registryUri,
  configSources: config.configSources,
  assumedRoleName: config.assumedRoleName,
  tokenSecretArn: config.tokenSecretArn,
});

Tags.of(app).add('app', 'clm');
// cdk-nag AwsSolutions; every acknowledged finding is justified in infra/nag.ts or next to its resource.
Validations.of(app).addPlugins(new ClmNagChecks(app, { verbose: true }));
app.synth();
