/**
 * Send the deployed webhook a GitHub push, as GitHub would: `npx tsx test/deployed/push.ts [REF] [COMMIT]` (defaults
 * refs/heads/main and a made-up commit). Reads the ClmWorkflow stack's outputs and the webhook secret from the AWS
 * endpoint in AWS_ENDPOINT_URL (MiniStack: README "The deployed system on your machine"), signs the recorded push
 * payload with the secret and POSTs it to the Function URL; prints the HTTP status and the webhook's answer.
 * `--forged` signs with a wrong secret (the webhook must answer 401).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { emulatorClients } from './support/deployed-environment';
import { deliverPush, functionUrlOnEmulator } from './support/github-push';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const forged = args.includes('--forged');
  const [ref = 'refs/heads/main', after = randomBytes(20).toString('hex')] = args.filter((a) => a !== '--forged');
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint) throw new Error('AWS_ENDPOINT_URL is not set: source the env file ministack.sh start wrote');
  const aws = emulatorClients(endpoint, process.env.AWS_ACCESS_KEY_ID);
  const stack = (await aws.cloudFormation.send(new DescribeStacksCommand({ StackName: 'ClmWorkflow' }))).Stacks?.[0];
  const outputs = Object.fromEntries((stack?.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
  const url = Object.entries(outputs).find(([key]) => key.startsWith('TriggersGithubWebhookUrl'))?.[1];
  if (!url || !outputs.WebhookSecretArn) throw new Error('stack ClmWorkflow has no webhook outputs: deploy it first');
  const secret = (await aws.secretsManager.send(new GetSecretValueCommand({ SecretId: outputs.WebhookSecretArn })))
    .SecretString!;
  const delivery = await deliverPush(
    functionUrlOnEmulator(endpoint, url),
    { ref, before: '0'.repeat(40), after },
    forged ? 'not-the-secret' : secret,
    // run from the repository root (as README says): the recorded push payload
    readFileSync('test/core/webhook/fixtures/push.json', 'utf8'),
  );
  console.log(`HTTP ${delivery.status}`);
  console.log(JSON.stringify(delivery.body, null, 2));
}

main().catch((error: unknown) => {
  console.error(`push.ts: ${(error as Error).message}`);
  process.exit(1);
});
