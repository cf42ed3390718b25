import { MAX_FLOW_DEPTH, loadYamlWithPositions } from '../../../lambdas/core/model/yaml-positions';
import { ValidationError } from '../../../lambdas/shared/errors';

const TEXT = `# header comment

clusters:
  # the first one
  - id: a
    node_pools:
      - name: x
        max_size: 3   # trailing comment
        config_items: {a: "1", b: "2"}
      - {name: y, max_size: 4}
  - id: b
    list:
      - 1
      - 2
    created_at: 2024-01-02T03:04:05Z
`;

describe('loadYamlWithPositions', () => {
  const doc = loadYamlWithPositions(TEXT, 'f.yaml');

  it('gives the line of each mapping key', () => {
    expect(doc.lineOf(['clusters'])).toBe(3);
    expect(doc.lineOf(['clusters', 0, 'id'])).toBe(5);
    expect(doc.lineOf(['clusters', 0, 'node_pools', 0, 'max_size'])).toBe(8);
    expect(doc.lineOf(['clusters', 1, 'created_at'])).toBe(15);
  });

  it('gives the line where a sequence item starts, skipping comments', () => {
    expect(doc.lineOf(['clusters', 0])).toBe(5);
    expect(doc.lineOf(['clusters', 1])).toBe(11);
    expect(doc.lineOf(['clusters', 1, 'list', 0])).toBe(13);
    expect(doc.lineOf(['clusters', 1, 'list', 1])).toBe(14);
  });

  it('falls back to the flow mapping line for its keys', () => {
    expect(doc.lineOf(['clusters', 0, 'node_pools', 1, 'max_size'])).toBe(10);
    expect(doc.lineOf(['clusters', 0, 'node_pools', 0, 'config_items', 'b'])).toBe(9);
  });

  it('falls back to the nearest ancestor for missing fields', () => {
    expect(doc.lineOf(['clusters', 1, 'alias'])).toBe(11);
    expect(doc.lineOf(['clusters', 0, 'node_pools', 0, 'min_size'])).toBe(7);
  });

  it('keeps timestamps as strings (CORE schema)', () => {
    expect((doc.value as { clusters: { created_at?: unknown }[] }).clusters[1].created_at).toBe('2024-01-02T03:04:05Z');
  });

  it('turns syntax errors into a ValidationError with file:line:column', () => {
    expect(() => loadYamlWithPositions('a: [1, 2\nb: 3\n', 'bad.yaml')).toThrow(ValidationError);
    try {
      loadYamlWithPositions('a: 1\n  b: 2\n', 'bad.yaml');
    } catch (error) {
      expect((error as ValidationError).issues[0]).toMatch(/^bad\.yaml:2:\d+: /);
    }
  });

  it('names the file and line of nesting too deep to parse, instead of "Maximum call stack size exceeded"', () => {
    const garbage = `  - ${'[{'.repeat(2_500_000)}`; // a 5 MB line
    const text = `clusters:\n  - id: a\n${garbage}\n`;

    let error: unknown;
    try {
      loadYamlWithPositions(text, 'clusters.yaml');
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/^clusters\.yaml: not valid YAML/);
    expect((error as ValidationError).issues).toEqual([
      `clusters.yaml:3:${4 + MAX_FLOW_DEPTH + 1}: lists or mappings nested more than ${MAX_FLOW_DEPTH} deep, too deep to parse (the line is ${garbage.length} characters long)`,
    ]);
  });

  it('parses nesting below that depth as usual', () => {
    const depth = 200;
    const doc = loadYamlWithPositions(`a: ${'['.repeat(depth)}1${']'.repeat(depth)}\n`, 'f.yaml');

    let value = (doc.value as { a: unknown }).a;
    for (let i = 1; i < depth; i += 1) value = (value as unknown[])[0];
    expect(value).toEqual([1]);
  });
});
