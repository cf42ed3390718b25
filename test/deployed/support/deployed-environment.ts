/**
 * What test/deployed/run.sh exported: MiniStack's endpoint and the control plane (its API server on 127.0.0.2). A
 * missing variable is a failure that says how to run the tier, never a skipped test.
 */
import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import { createAwsClients, type AwsClients } from '../../../lambdas/adapters/aws/aws-clients';

export const REGION = 'eu-central-1';
/** The CLM account: MiniStack takes a 12-digit access key id as the caller's account. */
export const CLM_ACCOUNT = '000000000000';
/** A second account of the emulator, for ClmClusterAccess (the cross-account path). */
export const CLUSTER_ACCOUNT = '111111111111';

export interface DeployedEnvironment {
  /** MiniStack, e.g. http://127.0.0.1:PORT */
  readonly endpoint: string;
  readonly kubeApiUrl: string;
  readonly kubeconfig: string;
  readonly kubeToken: string;
  readonly kubeCaFile: string;
  /** Where the tier keeps its logs (run.sh's state folder). */
  readonly stateDir: string;
}

export function deployedEnvironment(): DeployedEnvironment {
  const need = (name: string): string => {
    const value = process.env[name];
    if (!value)
      throw new Error(
        `${name} is not set: run the deployed tier with 'npm run test:deployed' (test/deployed/run.sh starts MiniStack and the control plane and exports them)`,
      );
    return value;
  };
  const kubeApiUrl = need('KUBE_API_URL');
  if (/^https:\/\/(127\.0\.0\.1|localhost)[:/]/.test(kubeApiUrl))
    throw new Error(
      `KUBE_API_URL ${kubeApiUrl}: MiniStack turns HTTPS to 127.0.0.1/localhost into plain HTTP; start the control plane with KUBE_API_ADDRESS=127.0.0.2`,
    );
  return {
    endpoint: need('AWS_ENDPOINT_URL'),
    kubeApiUrl,
    kubeconfig: need('KUBECONFIG'),
    kubeToken: need('KUBE_TOKEN'),
    kubeCaFile: need('KUBE_CA_FILE'),
    stateDir: need('CLM_DEPLOYED_STATE'),
  };
}

export interface EmulatorClients extends AwsClients {
  readonly sfn: SFNClient;
  readonly secretsManager: SecretsManagerClient;
  readonly dynamoDb: DynamoDBClient;
}

/** The SDK clients of one emulator account (the access key id names it). */
export function emulatorClients(endpoint: string, account = CLM_ACCOUNT): EmulatorClients {
  const options = { region: REGION, endpoint, credentials: { accessKeyId: account, secretAccessKey: 'test' } };
  return {
    ...createAwsClients(options),
    sfn: new SFNClient(options),
    secretsManager: new SecretsManagerClient(options),
    dynamoDb: new DynamoDBClient(options),
  };
}

/** `kube_ca_data` of the control plane: base64 of its CA's PEM. */
export function kubeCaData(env: DeployedEnvironment): string {
  return readFileSync(env.kubeCaFile).toString('base64');
}
