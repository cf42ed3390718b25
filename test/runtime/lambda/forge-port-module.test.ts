// The Lambda's forge port module: the forges of the secret CLM_FORGE_SECRET_ARN, each status sent to its source's.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import type { CommitStatus } from '../../../lambdas/core/forge/commit-status';
import { lambdaEnvironment } from '../../../lambdas/runtime/lambda/environment';
import type { WiringContext } from '../../../lambdas/runtime/lambda/port-modules';
import { portFactories } from '../../../lambdas/runtime/lambda/ports/forge';
import { FakeBitbucket } from '../../support/forge/fake-bitbucket';
import { FakeGitlab } from '../../support/forge/fake-gitlab';

const ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-forge-AbCdEf';
const SHA = '6'.repeat(40);
const sm = mockClient(SecretsManagerClient);

let gitlab: FakeGitlab;
let bitbucket: FakeBitbucket;
beforeEach(async () => {
  sm.reset();
  gitlab = new FakeGitlab({ tokens: ['glpat-lambda-token'], projects: { 'acme/group/config': new Set([SHA]) } });
  bitbucket = new FakeBitbucket({ tokens: ['bb-lambda-token'], repositories: { 'acme/config': new Set([SHA]) } });
  await Promise.all([gitlab.listen(), bitbucket.listen()]);
});
afterEach(() => Promise.all([gitlab.close(), bitbucket.close()]));

const status = (host: string, project: string): CommitStatus => ({
  repository: project.split('/').slice(-2).join('/'),
  project,
  host,
  sha: SHA,
  state: 'pending',
  context: 'clm/kube-1',
  description: 'update running · u-1',
  targetUrl: 'https://eu-central-1.console.aws.amazon.com/states/home',
});

const wiring = (vars: Record<string, string>) =>
  ({ env: lambdaEnvironment({ AWS_REGION: 'eu-central-1', ...vars }) }) as unknown as WiringContext;

describe('Lambda forge port module', () => {
  it("routes each status to the forge of its source's host, reading the per-forge secret once", async () => {
    sm.on(GetSecretValueCommand, { SecretId: ARN }).resolves({
      SecretString: JSON.stringify({
        gitlab: { token: 'glpat-lambda-token', apiUrl: gitlab.apiUrl },
        bitbucket: { token: 'bb-lambda-token', apiUrl: bitbucket.apiUrl },
      }),
    });
    const forge = (await portFactories(wiring({ CLM_FORGE_SECRET_ARN: ARN }))).forge!();

    await forge.setStatus(status('gitlab.com', 'acme/group/config'));
    await forge.setStatus(status('bitbucket.org', 'acme/config'));

    expect(forge.configured).toBe(true);
    expect(gitlab.statusesOf('acme/group/config', SHA)).toEqual([['clm/kube-1', 'running']]);
    expect(bitbucket.statusesOf('acme/config', SHA).map((s) => s.state)).toEqual(['INPROGRESS']);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('says what is wrong with the secret, naming it and the field; without a secret, no forge', async () => {
    sm.on(GetSecretValueCommand).resolves({
      SecretString: '{"gitlab": {"token": "glpat-x-secret", "apiUrl": "ftp://x"}}',
    });
    const forge = (await portFactories(wiring({ CLM_FORGE_SECRET_ARN: ARN }))).forge!();

    const error = await forge.setStatus(status('gitlab.com', 'acme/group/config')).catch((e: Error) => e.message);
    const none = (await portFactories(wiring({}))).forge!();

    expect(error).toBe(`secret ${ARN}: gitlab: apiUrl: must be an http(s) URL`);
    expect(none.configured).toBe(false);
  });
});
