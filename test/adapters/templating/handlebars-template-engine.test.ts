import { parsedTemplates } from './parser-spy';
import Handlebars from 'handlebars';
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import type { RenderRequest } from '../../../lambdas/ports/template-engine';
import { DEPLOYMENT, failure, request, sha256 } from './template-engine-fixtures';

describe('HandlebarsTemplateEngine: data and output', () => {
  it("renders CLM's names unescaped", async () => {
    // Arrange
    const engine = new HandlebarsTemplateEngine();
    // Act
    const out = await engine.render(
      request('id: {{Cluster.ID}}\nlabels: {{Cluster.ConfigItems.labels}}\nzone: {{Values.hosted_zone}}\n'),
    );
    // Assert
    expect(out).toBe('id: aws:123456789012:eu-central-1:kube-1\nlabels: a=<b>&c\nzone: example.org\n');
  });

  it('loops over node pools with @root access to the cluster', async () => {
    const engine = new HandlebarsTemplateEngine();
    const out = await engine.render(
      request('{{#each Cluster.NodePools}}{{Name}}@{{@root.Cluster.Environment}}{{/each}}'),
    );
    expect(out).toBe('default-worker@production');
  });

  it('leaves the global handlebars instance alone', async () => {
    await new HandlebarsTemplateEngine().render(request('{{base64 "x"}}'));
    expect(Handlebars.helpers.base64).toBeUndefined();
  });
});

describe('HandlebarsTemplateEngine: missing keys', () => {
  const engine = new HandlebarsTemplateEngine();
  const lines = (n: number): string => 'x: 1\n'.repeat(n);

  it('names the template, the line and the whole key path', async () => {
    // Arrange
    const content = `${lines(11)}  replicas: {{Cluster.ConfigItems.coredns_replicas}}\n`;
    // Act
    const error = await failure(engine, request(content));
    // Assert
    expect(error.message).toBe(`${DEPLOYMENT}:12: "Cluster.ConfigItems.coredns_replicas" is not defined`);
    expect(error.location).toEqual({ file: DEPLOYMENT, line: 12 });
  });

  it.each([
    ['a helper argument', '{{base64 Cluster.ConfigItems.nope}}', 'Cluster.ConfigItems.nope'],
    ['a nested helper argument', '{{base64 (base64 Values.nope)}}', 'Values.nope'],
    ['an #if condition', '{{#if Cluster.ConfigItems.nope}}x{{/if}}', 'Cluster.ConfigItems.nope'],
    ['an #each list', '{{#each Cluster.Nope}}x{{/each}}', 'Cluster.Nope'],
    ['a missing parent', '{{Cluster.Nope.deeper}}', 'Cluster.Nope.deeper'],
    ['a lookup inside a loop', '{{#each Cluster.NodePools}}{{ConfigItems.nope}}{{/each}}', 'ConfigItems.nope'],
    ['@root inside a loop', '{{#each Cluster.NodePools}}{{@root.Values.nope}}{{/each}}', '@root.Values.nope'],
    ['NodePool outside node-pool templates', '{{NodePool.Name}}', 'NodePool.Name'],
    ['a key= argument', '{{#each Cluster.NodePools key=Values.nope}}{{/each}}', 'Values.nope'],
  ])('fails on %s', async (_what, template, keyPath) => {
    const error = await failure(engine, request(`first\n${template}`));
    expect(error.message).toBe(`${DEPLOYMENT}:2: "${keyPath}" is not defined`);
  });

  it('picks the right path when two on a line end alike', async () => {
    const error = await failure(engine, request('{{Values.hosted_zone}} {{Values.x.hosted_zone}}'));
    expect(error.message).toBe(`${DEPLOYMENT}:1: "Values.x.hosted_zone" is not defined`);
  });

  it('says so when a name is neither a helper nor data', async () => {
    const error = await failure(engine, request('{{toYaml Cluster.ConfigItems}}'));
    expect(error.message).toBe(`${DEPLOYMENT}:1: "toYaml" is neither a helper nor defined`);
  });

  it('names a key looked up on a string', async () => {
    const error = await failure(engine, request('\n{{Cluster.ID.length}}'));
    expect(error.message).toBe(`${DEPLOYMENT}:2: "Cluster.ID.length" is not defined`);
  });

  it('gives "" for index on a missing key, the way KoA probes optional items', async () => {
    const out = await engine.render(
      request('[{{index Cluster.ConfigItems "taints"}}]{{#if (index Cluster.ConfigItems "taints")}}tainted{{/if}}'),
    );
    expect(out).toBe('[]');
  });

  it('accepts present keys with empty values, and null NodePool in #if', async () => {
    const out = await engine.render(
      request('[{{#each Cluster.NodePools}}{{ConfigItems.taints}}{{/each}}]{{#if NodePool}}pool{{else}}cluster{{/if}}'),
    );
    expect(out).toBe('[]cluster');
  });
});

describe('HandlebarsTemplateEngine: syntax errors', () => {
  const engine = new HandlebarsTemplateEngine();

  it('names the path and the line of a parse error', async () => {
    const error = await failure(engine, request('a: 1\nb: {{Cluster.ID}\n'));
    expect(error.message).toMatch(new RegExp(`^${DEPLOYMENT}:2: template syntax error: `));
  });

  it('names the path and the line of a block that does not close', async () => {
    const error = await failure(engine, request('a\n\n{{#if Cluster.ID}}\nx\n{{/each}}\n'));
    expect(error.message).toBe(`${DEPLOYMENT}:3: template syntax error: if doesn't match each`);
  });

  it('reports an unclosed block', async () => {
    const error = await failure(engine, request('{{#if Cluster.ID}}\nx\n'));
    expect(error.message).toMatch(new RegExp(`^${DEPLOYMENT}:\\d+: template syntax error: `));
    expect(error.location?.file).toBe(DEPLOYMENT);
  });
});

describe('HandlebarsTemplateEngine: manifestHash', () => {
  const engine = new HandlebarsTemplateEngine();

  it('hashes the sibling rendered with the same context', async () => {
    // Arrange
    const configmap = 'data:\n  cpu: {{Cluster.ConfigItems.coredns_cpu}}\n';
    const req = request('checksum: {{manifestHash "configmap.yaml"}}', { siblings: { 'configmap.yaml': configmap } });
    // Act
    const out = await engine.render(req);
    // Assert
    expect(out).toBe(`checksum: ${sha256('data:\n  cpu: 100m\n')}`);
  });

  it('passes the relative path as written to the sibling resolver', async () => {
    const asked: string[] = [];
    const req: RenderRequest = {
      ...request('{{manifestHash "../common/cm.yaml"}}'),
      sibling: (rel) => {
        asked.push(rel);
        return { path: 'main/cluster/manifests/common/cm.yaml', content: 'x' };
      },
    };
    await engine.render(req);
    expect(asked).toEqual(['../common/cm.yaml']);
  });

  it('is not reentrant', async () => {
    const req = request('{{manifestHash "a.yaml"}}', {
      siblings: { 'a.yaml': '{{manifestHash "b.yaml"}}', 'b.yaml': 'b' },
    });
    const error = await failure(engine, req);
    expect(error.message).toBe(
      `${DEPLOYMENT}:1: manifestHash: main/cluster/manifests/coredns/a.yaml:1: manifestHash is not reentrant: main/cluster/manifests/coredns/a.yaml is itself rendered for manifestHash`,
    );
  });

  it('names both files when the sibling is missing', async () => {
    const error = await failure(engine, request('\n{{manifestHash "missing.yaml"}}'));
    expect(error.message).toBe(
      `${DEPLOYMENT}:2: manifestHash: sibling template main/cluster/manifests/coredns/missing.yaml (from "missing.yaml") not found for ${DEPLOYMENT}`,
    );
  });

  it("names the sibling's own line when it fails, and the caller", async () => {
    const req = request('a\n{{manifestHash "cm.yaml"}}', {
      siblings: { 'cm.yaml': 'x\ny\n{{Cluster.ConfigItems.nope}}' },
    });
    const error = await failure(engine, req);
    expect(error.message).toBe(
      `${DEPLOYMENT}:2: manifestHash: main/cluster/manifests/coredns/cm.yaml:3: "Cluster.ConfigItems.nope" is not defined`,
    );
  });
});

describe('HandlebarsTemplateEngine: parsed template cache', () => {
  beforeEach(() => parsedTemplates.splice(0));

  it('parses a template content once per engine, whatever its path', async () => {
    // Arrange
    const first = new HandlebarsTemplateEngine();
    const second = new HandlebarsTemplateEngine();
    // Act
    await first.render(request('{{Cluster.ID}}', { path: 'a/one.yaml' }));
    await first.render(request('{{Cluster.ID}}', { path: 'b/two.yaml' }));
    await first.render(request('{{Cluster.Environment}}'));
    await second.render(request('{{Cluster.ID}}'));
    // Assert
    expect(parsedTemplates).toEqual(['{{Cluster.ID}}', '{{Cluster.Environment}}', '{{Cluster.ID}}']);
  });

  it('does not parse plain text at all', async () => {
    const out = await new HandlebarsTemplateEngine().render(request('kind: CustomResourceDefinition\n  { a: b }\n'));
    expect(out).toBe('kind: CustomResourceDefinition\n  { a: b }\n');
    expect(parsedTemplates).toEqual([]);
  });
});
