// Who may write which objects of the artefact bucket, judged by the product's IAM evaluation on the synthesized roles:
// renderers write rendered artefacts, the dispatcher only its fleet page, everyone else nothing.
import { FLEET_PAGE_KEY } from '../../lambdas/core/fleet-page/fleet-page-object';
import { decide, resolveIntrinsics, type PolicyStatement } from './support/iam-policy';
import { CONFIGURED, TASK_NAMES, grantsOf, logicalId, statementsOf, synthClm } from './synth';

const ACCOUNT = '123456789012';
const BUCKET_ARN = 'arn:aws:s3:::clm-artifacts';

describe('artefact bucket writes', () => {
  const { workflowTemplate: template } = synthClm(CONFIGURED);
  const raw = template.toJSON() as Record<string, any>;

  /** A task role's statements with the stateful stack's exported bucket ARN resolved to BUCKET_ARN. */
  function policyOf(task: string): PolicyStatement[] {
    const statements = statementsOf(template, logicalId(template, 'AWS::IAM::Role', `${task}Role`));
    const imported = JSON.parse(JSON.stringify(statements), (_key, value: unknown) =>
      value && typeof value === 'object' && 'Fn::ImportValue' in value
        ? /Artifacts.*Arn/.test(JSON.stringify(value))
          ? BUCKET_ARN
          : `arn:aws:unresolved:::${JSON.stringify(value)}`
        : value,
    ) as unknown[];
    return resolveIntrinsics(imported, raw, ACCOUNT) as PolicyStatement[];
  }
  const put = (task: string, key: string) =>
    decide(policyOf(task), undefined, { action: 's3:PutObject', resource: `${BUCKET_ARN}/${key}` });

  it('lets DispatchFleet put the fleet page and nothing else in the bucket', () => {
    expect(grantsOf('DispatchFleet')).toMatchObject({ artifacts: 'read', artifactKeys: [FLEET_PAGE_KEY] });
    expect(put('DispatchFleet', FLEET_PAGE_KEY)).toBe('allowed');
    expect(put('DispatchFleet', 'rendered/aws:123456789012:eu-central-1:kube-1/config.yaml')).toBe('not allowed');
    expect(put('DispatchFleet', 'stack-releases/v1.tar.gz')).toBe('not allowed');
    expect(put('DispatchFleet', 'fleet/other.html')).toBe('not allowed');
    expect(
      decide(policyOf('DispatchFleet'), undefined, {
        action: 's3:GetObject',
        resource: `${BUCKET_ARN}/${FLEET_PAGE_KEY}`,
      }),
    ).toBe('allowed');
    expect(
      decide(policyOf('DispatchFleet'), undefined, {
        action: 's3:DeleteObject',
        resource: `${BUCKET_ARN}/${FLEET_PAGE_KEY}`,
      }),
    ).toBe('not allowed');
  });

  it('lets no other reader put the fleet page, and the writers anything', () => {
    for (const task of TASK_NAMES) {
      const grants = grantsOf(task);
      const expected = grants.artifacts === 'write' || grants.artifactKeys ? 'allowed' : 'not allowed';
      expect({ task, page: put(task, FLEET_PAGE_KEY) }).toEqual({ task, page: expected });
      const other = grants.artifacts === 'write' ? 'allowed' : 'not allowed';
      expect({ task, rendered: put(task, 'rendered/x.yaml') }).toEqual({ task, rendered: other });
    }
  });
});
