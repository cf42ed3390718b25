// Reporting to the forge, deployed: a rule on every start and end of a cluster-update execution invokes ReportToForge
// with the event's detail; a rule on PullRequestAccepted invokes PlanPullRequest; only ReportToForge reads the forge
// credentials, and only when they are configured.
import { ExecutionStatusChange } from '../../lambdas/contracts/triggers';
import { logicalId, statementsOf, synthClm } from './synth';

const FORGE_SECRET = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-forge-AbCdEf';
const fnId = (t: ReturnType<typeof synthClm>['workflowTemplate'], task: string) =>
  logicalId(t, 'AWS::Lambda::Function', task);

describe('the forge in the workflow stack', () => {
  const { workflowTemplate: template } = synthClm({
    configSources: ['main:git:https://github.com/acme/cluster-config'],
    forgeSecretArn: FORGE_SECRET,
    githubApiUrl: 'https://github.example.com/api/v3',
  });
  const rules = Object.values(template.findResources('AWS::Events::Rule')).map((r) => r.Properties);
  const targetOf = (task: string) => rules.find((r) => JSON.stringify(r.Targets).includes(fnId(template, task)))!;

  it('reports every start and end of a cluster-update execution, passing the event detail as it is', () => {
    const rule = targetOf('ReportToForge');
    expect(rule.EventPattern).toMatchObject({
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: { status: ['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'] },
    });
    expect(rule.Targets[0].InputPath).toBe('$.detail');
    const detail = { executionArn: 'arn:…', name: 'update-x', status: 'RUNNING', input: '{}', output: null };
    expect(ExecutionStatusChange.parse(detail)).toMatchObject({ name: 'update-x', status: 'RUNNING' });
  });

  it('plans pull requests the webhook accepted', () => {
    const rule = targetOf('PlanPullRequest');
    expect(rule.EventPattern).toEqual({ source: ['clm.fleet'], 'detail-type': ['PullRequestAccepted'] });
    expect(rule.Targets[0].InputPath).toBe('$.detail');
  });

  it('gives the forge credentials and API URL to ReportToForge only', () => {
    const env = (task: string) =>
      template.findResources('AWS::Lambda::Function')[fnId(template, task)].Properties.Environment.Variables;
    expect(env('ReportToForge')).toMatchObject({
      CLM_FORGE_SECRET_ARN: FORGE_SECRET,
      CLM_GITHUB_API_URL: 'https://github.example.com/api/v3',
    });
    expect(env('GithubWebhook').CLM_FORGE_SECRET_ARN).toBeUndefined();
    const reads = (task: string) =>
      statementsOf(template, logicalId(template, 'AWS::IAM::Role', `${task}Role`)).filter((s) =>
        JSON.stringify(s.Resource).includes('clm-forge'),
      );
    expect(reads('ReportToForge').length).toBeGreaterThan(0);
    expect(reads('DispatchFleet')).toEqual([]);
    const { workflowTemplate: none } = synthClm({});
    const plain =
      none.findResources('AWS::Lambda::Function')[fnId(none, 'ReportToForge')].Properties.Environment.Variables;
    expect(plain.CLM_FORGE_SECRET_ARN).toBeUndefined();
  });
});
