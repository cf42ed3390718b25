import { parseClustersYaml } from '../../../lambdas/core/model/parse-clusters';
import { MAX_NODE_POOLS } from '../../../lambdas/contracts/status';
import { ValidationError } from '../../../lambdas/shared/errors';

const FILE = 'examples/clusters.yaml';

const VALID = `# two clusters
clusters:
  - id: aws:123456789012:eu-central-1:kube-1
    alias: kube-1
    local_id: kube-1
    api_server_url: https://kube-1.example.org
    channel: main
    environment: test
    criticality_level: 1
    infrastructure_account: aws:123456789012
    lifecycle_status: ready
    provider: zalando-aws
    region: eu-central-1
    config_items:
      product_x_key: abcde
    node_pools:
      - name: master-default
        profile: master-default
        instance_types: [m5.large]
        discount_strategy: none
        min_size: 1
        max_size: 2
      - name: karpenter
        profile: worker-karpenter
        discount_strategy: none
        min_size: 0
        max_size: 0
    status:
      current_version: "abc#def"
      last_version: ""
      next_version: ""
      problems:
        - type: https://example.org/problems/x
          title: it broke
          status: 500
  - id: aws:123456789012:eu-central-1:kube-2
    alias: kube-2
    local_id: kube-2
    api_server_url: https://kube-2.example.org
    channel: stable
    environment: production
    criticality_level: 2
    infrastructure_account: aws:123456789012
    lifecycle_status: requested
    provider: zalando-eks
    region: eu-central-1
    created_at: 2024-01-02T03:04:05Z
`;

function issuesOf(text: string): string[] {
  try {
    parseClustersYaml(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return [...(error as ValidationError).issues];
  }
  throw new Error('expected a ValidationError');
}

/** Replace one line of VALID (1-based) with another text. */
function withLine(line: number, replacement: string, text = VALID): string {
  const lines = text.split('\n');
  lines[line - 1] = replacement;
  return lines.join('\n');
}

describe('parseClustersYaml', () => {
  it('converts the snake_case file format to the camelCase model, in file order', () => {
    // Act
    const { clusters, warnings } = parseClustersYaml(VALID, FILE);

    // Assert
    expect(warnings).toEqual([]);
    expect(clusters.map((c) => c.id)).toEqual([
      'aws:123456789012:eu-central-1:kube-1',
      'aws:123456789012:eu-central-1:kube-2',
    ]);
    const [first, second] = clusters;
    expect(first).toMatchObject({
      alias: 'kube-1',
      localId: 'kube-1',
      apiServerUrl: 'https://kube-1.example.org',
      channel: 'main',
      criticalityLevel: 1,
      infrastructureAccount: 'aws:123456789012',
      lifecycleStatus: 'ready',
      provider: 'zalando-aws',
      configItems: { product_x_key: 'abcde' },
    });
    expect(first.nodePools[0]).toEqual({
      name: 'master-default',
      profile: 'master-default',
      instanceTypes: ['m5.large'],
      discountStrategy: 'none',
      minSize: 1,
      maxSize: 2,
      configItems: {},
    });
    expect(first.nodePools[1].instanceTypes).toEqual([]);
    expect(first.status).toEqual({
      currentVersion: 'abc#def',
      lastVersion: '',
      nextVersion: '',
      problems: [{ type: 'https://example.org/problems/x', title: 'it broke', status: 500 }],
    });
    expect(second.status).toEqual({ currentVersion: '', lastVersion: '', nextVersion: '', problems: [] });
    expect(second.createdAt).toBe('2024-01-02T03:04:05Z');
    expect(second.configItems).toEqual({});
    expect(second.nodePools).toEqual([]);
  });

  it('accepts an empty file as no clusters, with a warning', () => {
    const result = parseClustersYaml('# nothing yet\n', FILE);
    expect(result.clusters).toEqual([]);
    expect(result.warnings).toEqual([`${FILE}:1: the file defines no clusters`]);
  });

  it('fails with file, line, cluster id and field for a wrongly typed field', () => {
    const issues = issuesOf(withLine(22, '        max_size: ten'));
    expect(issues).toEqual([
      `${FILE}:22: cluster aws:123456789012:eu-central-1:kube-1: node_pools[0].max_size: expected a number, got "ten"`,
    ]);
  });

  it('refuses a local_id CloudFormation cannot use in a stack name, and an unknown discount_strategy', () => {
    expect(VALID.split('\n')[4]).toBe('    local_id: kube-1');
    expect(VALID.split('\n')[19]).toBe('        discount_strategy: none');
    const issues = issuesOf(withLine(20, '        discount_strategy: cheap', withLine(5, '    local_id: kube_1')));
    expect(issues).toEqual([
      expect.stringMatching(
        /^examples\/clusters\.yaml:5: cluster .*kube-1: local_id: must match .*CloudFormation stacks/,
      ),
      expect.stringMatching(
        /^examples\/clusters\.yaml:20: .*discount_strategy: "cheap" is not one of none, spot, spot_max_price$/,
      ),
    ]);
  });

  it('refuses more node pools than one execution can roll within its history bound (MAX_NODE_POOLS)', () => {
    // Arrange: the first cluster with MAX_NODE_POOLS + 1 pools
    const pool = (i: number) =>
      `      - name: pool-${i}\n        profile: worker-default\n        instance_types: [m5.large]\n        discount_strategy: none\n        min_size: 0\n        max_size: 1`;
    const pools = Array.from({ length: MAX_NODE_POOLS + 1 }, (_, i) => pool(i)).join('\n');
    const text = VALID.replace(/    node_pools:\n(      - [\s\S]*?)(?=\n    status:)/, `    node_pools:\n${pools}`);
    expect(text).not.toBe(VALID);

    // Act / Assert
    expect(issuesOf(text)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^examples/clusters\\.yaml:\\d+: cluster .*kube-1: node_pools: .*at most ${MAX_NODE_POOLS} node pools`,
        ),
      ),
    ]);
  });

  it('reports every problem at once, sorted by line', () => {
    // Arrange: a bad provider (line 12), an unknown lifecycle status (line 11) and a bad account in cluster 2 (line 43)
    let text = withLine(12, '    provider: zalando-gke');
    text = text
      .split('\n')
      .map((l, i) =>
        i === 10 ? '    lifecycle_status: running' : i === 42 ? '    infrastructure_account: aws:1234' : l,
      )
      .join('\n');

    // Act
    const issues = issuesOf(text);

    // Assert
    expect(issues).toHaveLength(3);
    expect(issues[0]).toBe(
      `${FILE}:11: cluster aws:123456789012:eu-central-1:kube-1: lifecycle_status: "running" is not one of requested, creating, ready, decommission-requested, decommissioned`,
    );
    expect(issues[1]).toMatch(
      new RegExp(
        `^${FILE}:12: cluster aws:123456789012:eu-central-1:kube-1: provider: "zalando-gke" is not one of zalando-aws, zalando-eks \\(did you mean "zalando-eks"\\?\\)$`,
      ),
    );
    expect(issues[2]).toBe(
      `${FILE}:43: cluster aws:123456789012:eu-central-1:kube-2: infrastructure_account: must be aws:<12-digit account id>, e.g. aws:123456789012`,
    );
  });

  it('rejects unknown fields with a did-you-mean', () => {
    const issues = issuesOf(withLine(7, '    chanel: main'));
    expect(issues).toContain(
      `${FILE}:7: cluster aws:123456789012:eu-central-1:kube-1: chanel: unknown field (did you mean "channel"?)`,
    );
    expect(issues).toContain(`${FILE}:3: cluster aws:123456789012:eu-central-1:kube-1: channel: is required`);
  });

  it('rejects unknown node pool fields and unknown top-level keys', () => {
    const text = `${withLine(21, '        minsize: 1')}cluster_defaults: {}\n`;
    const issues = issuesOf(text);
    expect(issues).toContain(
      `${FILE}:17: cluster aws:123456789012:eu-central-1:kube-1: node_pools[0].min_size: is required`,
    );
    expect(issues).toContain(
      `${FILE}:21: cluster aws:123456789012:eu-central-1:kube-1: node_pools[0].minsize: unknown field (did you mean "min_size"?)`,
    );
    expect(issues).toContain(
      `${FILE}:48: cluster_defaults: unknown top-level field; the file holds a "clusters:" list`,
    );
  });

  it('takes an unquoted number as a config item value as written, with a warning (CLM reads strings)', () => {
    const { clusters, warnings } = parseClustersYaml(withLine(15, '      product_x_key: 8080.50'), FILE);
    expect(clusters[0].configItems.product_x_key).toBe('8080.50');
    expect(warnings).toEqual([
      `${FILE}:15: cluster aws:123456789012:eu-central-1:kube-1: config_items.product_x_key: unquoted number taken as the text "8080.50" (as CLM does); quote it in YAML`,
    ]);
  });

  it('asks to quote config item values that YAML reads as booleans', () => {
    const issues = issuesOf(withLine(15, '      product_x_key: true'));
    expect(issues).toEqual([
      `${FILE}:15: cluster aws:123456789012:eu-central-1:kube-1: config_items.product_x_key: expected a string, got boolean true; quote it in YAML: "true"`,
    ]);
  });

  it('rejects config item keys and pool names that the registry API would refuse', () => {
    let text = withLine(15, '      Product-Key: abcde');
    text = text.replace('      - name: karpenter', '      - name: Karpenter_Pool');
    const issues = issuesOf(text);
    expect(issues).toEqual([
      `${FILE}:15: cluster aws:123456789012:eu-central-1:kube-1: config_items["Product-Key"]: config item keys must match ^[a-z][a-z0-9_]*[a-z0-9]$ (lowercase letters, digits, underscores)`,
      `${FILE}:23: cluster aws:123456789012:eu-central-1:kube-1: node_pools[1].name: must match ^[a-z][a-z0-9-]*[a-z0-9]$ (lowercase letters, digits, dashes)`,
    ]);
  });

  it('requires instance types for every pool except worker-karpenter', () => {
    const text = VALID.replace('profile: worker-karpenter', 'profile: worker-default');
    expect(issuesOf(text)).toEqual([
      `${FILE}:23: cluster aws:123456789012:eu-central-1:kube-1: node_pools[1].instance_types: pool karpenter (profile worker-default) needs at least one instance type; only worker-karpenter pools may have none`,
    ]);
  });

  it('accepts the deprecated instance_type with a warning naming file and line', () => {
    const { clusters, warnings } = parseClustersYaml(withLine(19, '        instance_type: m5.xlarge'), FILE);
    expect(clusters[0].nodePools[0].instanceTypes).toEqual(['m5.xlarge']);
    expect(warnings).toEqual([
      `${FILE}:19: cluster aws:123456789012:eu-central-1:kube-1: node_pools[0].instance_type: instance_type is deprecated, use instance_types: [m5.xlarge]`,
    ]);
  });

  it('refuses instance_type and instance_types together', () => {
    const text = withLine(19, '        instance_types: [m5.large]\n        instance_type: m5.xlarge');
    expect(issuesOf(text)).toEqual([
      `${FILE}:20: cluster aws:123456789012:eu-central-1:kube-1: node_pools[0].instance_type: give either instance_types or the deprecated instance_type, not both`,
    ]);
  });

  it('rejects duplicate cluster ids, naming the first definition', () => {
    const text = VALID.replace('id: aws:123456789012:eu-central-1:kube-2', 'id: aws:123456789012:eu-central-1:kube-1');
    expect(issuesOf(text)).toEqual([
      `${FILE}:36: cluster aws:123456789012:eu-central-1:kube-1: id: duplicate cluster id (first defined at line 3)`,
    ]);
  });

  it('rejects two clusters that would own the same main stack', () => {
    const text = VALID.replace('local_id: kube-2', 'local_id: kube-1');
    expect(issuesOf(text)[0]).toBe(
      `${FILE}:38: cluster aws:123456789012:eu-central-1:kube-2: local_id: kube-1 is also the local_id of cluster aws:123456789012:eu-central-1:kube-1 in aws:123456789012 eu-central-1; both would own the same main stack`,
    );
  });

  it('rejects min_size above max_size and duplicate pool names', () => {
    let text = withLine(21, '        min_size: 3');
    text = text.replace('      - name: karpenter', '      - name: master-default');
    expect(issuesOf(text)).toEqual([
      `${FILE}:21: cluster aws:123456789012:eu-central-1:kube-1: node_pools[0].min_size: min_size 3 is larger than max_size 2`,
      `${FILE}:23: cluster aws:123456789012:eu-central-1:kube-1: node_pools[1].name: duplicate node pool name master-default (also node_pools[0])`,
    ]);
  });

  it('names clusters without a usable id by their index', () => {
    const issues = issuesOf('clusters:\n  - alias: x1\n');
    expect(issues[0]).toMatch(/^examples\/clusters\.yaml:2: clusters\[0\]: id: is required$/);
  });

  it('turns YAML syntax errors into a ValidationError with file, line and column', () => {
    const issues = issuesOf('clusters:\n  - id: a\n   alias: [unclosed\n');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^examples\/clusters\.yaml:\d+:\d+: /);
  });

  it('rejects duplicate keys in one mapping as a YAML error naming the line', () => {
    const issues = issuesOf(withLine(8, '    channel: other'));
    expect(issues[0]).toMatch(/^examples\/clusters\.yaml:8:\d+: duplicated mapping key/);
  });
});
