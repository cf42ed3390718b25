/**
 * What test/integration/run.sh exported: the moto endpoint and the control plane. A missing variable is a failure
 * that says how to start the suite, never a skipped test.
 */
export interface IntegrationEnvironment {
  /** moto_server, e.g. http://127.0.0.1:PORT */
  readonly awsEndpoint: string;
  /** kube-apiserver, e.g. https://127.0.0.1:PORT */
  readonly kubeApiUrl: string;
  readonly kubeconfig: string;
  readonly kubeToken: string;
  readonly kubeCaFile: string;
}

export const REGION = 'eu-central-1';
/** moto's account id, whatever the credentials. */
export const MOTO_ACCOUNT = '123456789012';
export const MOTO_CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' } as const;

export function integrationEnvironment(): IntegrationEnvironment {
  const need = (name: string): string => {
    const value = process.env[name];
    if (!value)
      throw new Error(
        `${name} is not set: run the integration suite with 'npm run test:integration' (test/integration/run.sh starts moto and the control plane and exports it)`,
      );
    return value;
  };
  return {
    awsEndpoint: need('AWS_ENDPOINT_URL'),
    kubeApiUrl: need('KUBE_API_URL'),
    kubeconfig: need('KUBECONFIG'),
    kubeToken: need('KUBE_TOKEN'),
    kubeCaFile: need('KUBE_CA_FILE'),
  };
}

/** Only moto's endpoint, for tests that need no control plane (run with `test/integration/aws/moto.sh start`). */
export function motoEndpoint(): string {
  const value = process.env.AWS_ENDPOINT_URL;
  if (!value)
    throw new Error(
      "AWS_ENDPOINT_URL is not set: run the integration suite with 'npm run test:integration', or start moto with test/integration/aws/moto.sh start DIR and export DIR/env",
    );
  return value;
}

/** Empties moto (all services; the default VPC and subnets come back). */
export async function resetMoto(endpoint: string): Promise<void> {
  const response = await fetch(`${endpoint}/moto-api/reset`, { method: 'POST' });
  if (!response.ok) throw new Error(`moto reset at ${endpoint} answered HTTP ${response.status}`);
}
