import { parseDeletions } from '../../../lambdas/core/deletions/parse-deletions';
import { concatDeletions } from '../../../lambdas/core/deletions/deletion';
import { ConfigError, ValidationError } from '../../../lambdas/shared/errors';

const FILE = 'main/cluster/manifests/deletions.yaml';

function issuesOf(text: string): string[] {
  try {
    parseDeletions(text, FILE);
  } catch (error) {
    if (error instanceof ValidationError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseDeletions', () => {
  it('parses every target form and option into camelCase entries', () => {
    // Arrange
    const text = [
      'pre_apply:',
      '  - {kind: Deployment, namespace: web, name: old-web}',
      '  - {kind: ConfigMap, selector: "version != v2", has_owner: true}',
      '  - kind: Job',
      '    namespace: data',
      '    labels: {app: backup, tier: 1}',
      '    has_owner: false',
      '    propagation_policy: Foreground',
      '    grace_period_seconds: 0',
      'post_apply:',
      '  - {kind: deployments.v1.apps, name: cluster-wide}',
    ].join('\n');

    // Act
    const deletions = parseDeletions(text, FILE);

    // Assert
    expect(deletions.preApply).toEqual([
      { kind: 'Deployment', namespace: 'web', name: 'old-web' },
      { kind: 'ConfigMap', selector: 'version != v2', hasOwner: true },
      {
        kind: 'Job',
        namespace: 'data',
        labels: { app: 'backup', tier: '1' },
        hasOwner: false,
        propagationPolicy: 'Foreground',
        gracePeriodSeconds: 0,
      },
    ]);
    expect(deletions.postApply).toEqual([{ kind: 'deployments.v1.apps', name: 'cluster-wide' }]);
  });

  it('gives no namespace when none is written (CLM code: no default)', () => {
    const deletions = parseDeletions('pre_apply:\n  - {kind: Namespace, name: load-test}\n', FILE);
    expect(deletions.preApply[0]).not.toHaveProperty('namespace');
  });

  it('accepts an empty file, comments only, and empty lists', () => {
    expect(parseDeletions('', FILE)).toEqual({ preApply: [], postApply: [] });
    expect(parseDeletions('# nothing to delete\n', FILE)).toEqual({ preApply: [], postApply: [] });
    expect(parseDeletions('pre_apply:\npost_apply: []\n', FILE)).toEqual({ preApply: [], postApply: [] });
  });

  it('reports every violation, each with the file and entry index', () => {
    // Arrange: one entry per violation kind
    const text = [
      'pre_apply:',
      '  - {name: no-kind}', // 0 kind missing
      '  - {kind: Pod}', // 1 no target
      '  - {kind: Pod, name: a, selector: b=c}', // 2 two targets
      '  - {kind: Pod, name: a, has_owner: true}', // 3 has_owner with name
      '  - {kind: Pod, name: a, propagation_policy: Later}', // 4 bad policy
      '  - {kind: Pod, name: a, grace_period_seconds: -1}', // 5 negative grace
      '  - {kind: Pod, name: a, grace_period_seconds: 1.5}', // 6 fractional grace
      '  - {kind: Pod, name: a, colour: red}', // 7 unknown field
      '  - just-a-string', // 8 not a mapping
      '  - {kind: Pod, labels: [a, b]}', // 9 labels not a map
      '  - {kind: Pod, selector: a=b, has_owner: "yes"}', // 10 has_owner not a bool
      '  - {kind: Pod, name: {nested: true}}', // 11 name not a string
      'post_apply:',
      '  - {kind: Pod, name: fine}',
      'mid_apply: []',
    ].join('\n');

    // Act
    const issues = issuesOf(text);

    // Assert
    expect(issues).toEqual([
      `${FILE}: unknown key "mid_apply" (allowed: pre_apply, post_apply)`,
      `${FILE}: pre_apply[0]: kind is required`,
      `${FILE}: pre_apply[1]: exactly one of name, selector or labels is required, found none`,
      `${FILE}: pre_apply[2]: exactly one of name, selector or labels is required, found name and selector`,
      `${FILE}: pre_apply[3]: has_owner is only valid with selector or labels`,
      `${FILE}: pre_apply[4]: propagation_policy must be one of Orphan, Background, Foreground, found "Later"`,
      `${FILE}: pre_apply[5]: grace_period_seconds must be a non-negative integer, found -1`,
      `${FILE}: pre_apply[6]: grace_period_seconds must be a non-negative integer, found 1.5`,
      `${FILE}: pre_apply[7]: unknown field "colour" (allowed: kind, namespace, name, selector, labels, has_owner, propagation_policy, grace_period_seconds)`,
      `${FILE}: pre_apply[8]: expected a mapping, found a string`,
      `${FILE}: pre_apply[9]: labels must be a mapping of label names to values, found a list`,
      `${FILE}: pre_apply[9]: exactly one of name, selector or labels is required, found none`,
      `${FILE}: pre_apply[10]: has_owner must be true or false, found "yes"`,
      `${FILE}: pre_apply[11]: name must be a string, found a mapping`,
      `${FILE}: pre_apply[11]: exactly one of name, selector or labels is required, found none`,
    ]);
  });

  it('parses selectors and checks kinds when the file is read, not when the deletion runs', () => {
    // Arrange
    const text = [
      'pre_apply:',
      '  - {kind: Deployment, selector: "app in (a,b"}', // 0 unclosed set
      '  - {kind: "Deployment apps", name: a}', // 1 not a kind
      '  - {kind: Ingress.networking.k8s.io, selector: "app=web,!legacy"}', // 2 fine
    ].join('\n');

    // Act
    const issues = issuesOf(text);

    // Assert
    expect(issues).toEqual([
      `${FILE}: pre_apply[0]: selector: unable to parse label selector requirement "app in (a,b"`,
      `${FILE}: pre_apply[1]: kind "Deployment apps" is not a Kubernetes kind (e.g. Deployment)`,
    ]);
  });

  it('names the file and the problem count in the thrown error', () => {
    const act = () => parseDeletions('pre_apply:\n  - {kind: Pod}\n', FILE);
    expect(act).toThrow(ValidationError);
    expect(act).toThrow(
      `${FILE}: invalid deletions (1 problem)\n  - ${FILE}: pre_apply[0]: exactly one of name, selector or labels is required, found none`,
    );
  });

  it('rejects a top level that is not a mapping, and lists that are not lists', () => {
    expect(issuesOf('- kind: Pod\n')).toEqual([
      `${FILE}: expected a mapping with pre_apply and/or post_apply, found a list`,
    ]);
    expect(issuesOf('pre_apply: {kind: Pod}\n')).toEqual([`${FILE}: pre_apply must be a list, found a mapping`]);
  });

  it('fails with the line of a YAML syntax error', () => {
    expect(() => parseDeletions('pre_apply:\n  - kind: Pod\n   name: x\n', FILE)).toThrow(ConfigError);
    expect(() => parseDeletions('pre_apply:\n  - kind: Pod\n   name: x\n', FILE)).toThrow(
      new RegExp(`^${FILE}:3: invalid YAML`),
    );
  });
});

describe('concatDeletions', () => {
  it('concatenates the lists of all sources in source order', () => {
    const main = parseDeletions('pre_apply: [{kind: A, name: a}]\npost_apply: [{kind: C, name: c}]\n', 'main/d.yaml');
    const extra = parseDeletions('pre_apply: [{kind: B, name: b}]\n', 'extra/d.yaml');
    expect(concatDeletions([main, extra])).toEqual({
      preApply: [
        { kind: 'A', name: 'a' },
        { kind: 'B', name: 'b' },
      ],
      postApply: [{ kind: 'C', name: 'c' }],
    });
  });
});
