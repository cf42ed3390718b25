import { createHash } from 'node:crypto';
import Handlebars from 'handlebars';
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import type {
  CloudLookups,
  InstanceTypeInfo,
  RenderRequest,
  TemplateFile,
} from '../../../lambdas/ports/template-engine';
import { TemplateRenderError, ThrottledError, TransientApiError, isRetryable } from '../../../lambdas/shared/errors';

const NO_DISKS = { instanceStorageDevices: 0, instanceStorageDeviceSizeGB: 0 };
const DEPLOYMENT = 'main/cluster/manifests/coredns/deployment.yaml';

const CONTEXT = {
  Cluster: {
    ID: 'aws:123456789012:eu-central-1:kube-1',
    Environment: 'production',
    ConfigItems: { coredns_cpu: '100m', labels: 'a=<b>&c' },
    NodePools: [{ Name: 'default-worker', Profile: 'worker-splitaz', ConfigItems: { taints: '' } }],
  },
  Values: { hosted_zone: 'example.org' },
  NodePool: null,
};

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function request(content: string, options: { path?: string; siblings?: Record<string, string> } = {}): RenderRequest {
  const path = options.path ?? DEPLOYMENT;
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  return {
    template: { path, content },
    context: CONTEXT,
    sibling: (relative: string): TemplateFile | undefined => {
      const content = options.siblings?.[relative];
      return content === undefined ? undefined : { path: `${dir}${relative}`, content };
    },
  };
}

async function failure(engine: HandlebarsTemplateEngine, req: RenderRequest): Promise<TemplateRenderError> {
  const error = await engine.render(req).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TemplateRenderError)) throw new Error(`expected a TemplateRenderError, got ${String(error)}`);
  return error;
}

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

/** A CloudLookups fake that counts calls per argument set and can be told to fail. */
class FakeLookups implements CloudLookups {
  readonly calls: string[] = [];
  failAmi = new Set<string>();
  throttled = false;

  async amiId(name: string, ownerId: string): Promise<string> {
    this.calls.push(`amiId ${name} ${ownerId}`);
    await Promise.resolve();
    if (this.throttled) throw new ThrottledError('Rate exceeded');
    if (this.failAmi.has(name)) throw new Error(`no image found with name: ${name} and owner: ${ownerId}`);
    return `ami-${name}`;
  }

  async instanceType(type: string): Promise<InstanceTypeInfo> {
    this.calls.push(`instanceType ${type}`);
    await Promise.resolve();
    if (type === 'm5.xlarge')
      return { instanceType: type, vcpu: 4, memoryMiB: 16384, architecture: 'amd64', ...NO_DISKS };
    if (type === 'c5d.large')
      return {
        instanceType: type,
        vcpu: 2,
        memoryMiB: 4096,
        architecture: 'amd64',
        instanceStorageDevices: 1,
        instanceStorageDeviceSizeGB: 50,
      };
    throw new Error(`unknown instance type ${type}`);
  }
}

describe('HandlebarsTemplateEngine: cloud lookups', () => {
  it('calls the port once per distinct argument set, then renders with the values', async () => {
    // Arrange
    const lookups = new FakeLookups();
    const engine = new HandlebarsTemplateEngine({ lookups });
    const template = [
      'ami: {{amiID "kube-node" "123"}}',
      'again: {{amiID "kube-node" "123"}}',
      'other: {{amiID "kube-master" "123"}}',
      'cpu: {{instanceTypeCPUQuantity "m5.xlarge"}} {{scaleQuantity (instanceTypeCPUQuantity "m5.xlarge") 0.3}}',
      'mem: {{instanceTypeMemoryQuantity "m5.xlarge"}} {{scaleQuantity (instanceTypeMemoryQuantity "m5.xlarge") 0.1}}',
    ].join('\n');
    // Act
    const out = await engine.render(request(template));
    // Assert
    expect(out).toBe(
      'ami: ami-kube-node\nagain: ami-kube-node\nother: ami-kube-master\ncpu: 4 1200m\nmem: 16Gi 1717986944',
    );
    expect([...lookups.calls].sort()).toEqual([
      'amiId kube-master 123',
      'amiId kube-node 123',
      'instanceType m5.xlarge',
    ]);
  });

  it('caches per engine: a second render makes no calls', async () => {
    const lookups = new FakeLookups();
    const engine = new HandlebarsTemplateEngine({ lookups });
    await engine.render(request('{{amiID "kube-node" "123"}}'));
    await engine.render(request('x {{amiID "kube-node" "123"}}', { path: 'main/cluster/cluster.yaml' }));
    expect(lookups.calls).toEqual(['amiId kube-node 123']);
  });

  it('shares a call between concurrent renders', async () => {
    const lookups = new FakeLookups();
    const engine = new HandlebarsTemplateEngine({ lookups });
    const outs = await Promise.all(
      [1, 2, 3].map((i) => engine.render(request(`${i} {{instanceTypeCPUQuantity "c5d.large"}}`))),
    );
    expect(outs).toEqual(['1 2', '2 2', '3 2']);
    expect(lookups.calls).toEqual(['instanceType c5d.large']);
  });

  it('follows lookups that depend on looked-up values (one more pass)', async () => {
    const lookups = new FakeLookups();
    const engine = new HandlebarsTemplateEngine({ lookups });
    const out = await engine.render(
      request('{{#if (eq (amiID "a" "1") "ami-a")}}{{amiID "b" "1"}}{{else}}{{amiID "c" "1"}}{{/if}}'),
    );
    expect(out).toBe('ami-b');
    // the placeholder sent pass 1 into the else branch, so "c" was looked up too; never "b" twice
    expect(lookups.calls).toEqual(['amiId a 1', 'amiId c 1', 'amiId b 1']);
  });

  it('does not ask the port about names made from placeholders, and gives up after four passes', async () => {
    // Arrange: each lookup needs the previous one's result
    const lookups = new FakeLookups();
    const engine = new HandlebarsTemplateEngine({ lookups });
    // Act
    const three = await engine.render(request('{{amiID (amiID (amiID "a" "1") "1") "1"}}'));
    const error = await failure(engine, request('{{amiID (amiID (amiID (amiID (amiID "b" "1") "1") "1") "1") "1"}}'));
    // Assert
    expect(three).toBe('ami-ami-ami-a');
    expect(lookups.calls).toEqual([
      'amiId a 1',
      'amiId ami-a 1',
      'amiId ami-ami-a 1',
      'amiId b 1',
      'amiId ami-b 1',
      'amiId ami-ami-b 1',
    ]);
    expect(error.message).toBe(`${DEPLOYMENT}: lookups still unresolved after 4 passes: amiID("ami-ami-ami-b", "1")`);
  });

  it('ignores errors caused by placeholders once the real values are known', async () => {
    const lookups = new FakeLookups();
    const engine = new HandlebarsTemplateEngine({ lookups });
    // With the placeholder AMI id the split yields one item and index 1 is out of range; with the real one it works.
    const out = await engine.render(request('{{index (split (amiID "with-dash" "1") "-") 2}}'));
    expect(out).toBe('dash');
  });

  it('fails naming the helper and its arguments when a lookup fails, and does not cache the failure', async () => {
    // Arrange
    const lookups = new FakeLookups();
    lookups.failAmi.add('gone');
    const engine = new HandlebarsTemplateEngine({ lookups });
    // Act
    const error = await failure(engine, request('a\n{{amiID "gone" "123"}}'));
    await failure(engine, request('a\n{{amiID "gone" "123"}}'));
    // Assert
    expect(error.message).toBe(
      `${DEPLOYMENT}:2: amiID("gone", "123") failed: no image found with name: gone and owner: 123`,
    );
    expect(error.cause).toBeInstanceOf(TemplateRenderError);
    expect(lookups.calls).toEqual(['amiId gone 123', 'amiId gone 123']);
  });

  it('keeps a throttled lookup retryable, still naming the helper and its arguments', async () => {
    // Arrange
    const lookups = new FakeLookups();
    lookups.throttled = true;
    const engine = new HandlebarsTemplateEngine({ lookups });
    // Act
    const error = await engine.render(request('{{amiID "kube-node" "123"}}')).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Assert
    expect(error).toBeInstanceOf(TransientApiError);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).toBe(`${DEPLOYMENT}:1: amiID("kube-node", "123") failed: Rate exceeded`);
  });

  it('fails instance type lookups naming the helper', async () => {
    const engine = new HandlebarsTemplateEngine({ lookups: new FakeLookups() });
    const error = await failure(engine, request('{{instanceTypeMemoryQuantity "m6g.invalid"}}'));
    expect(error.message).toBe(
      `${DEPLOYMENT}:1: instanceTypeMemoryQuantity("m6g.invalid") failed: unknown instance type m6g.invalid`,
    );
  });

  it('without a lookups port, explains what to do', async () => {
    const engine = new HandlebarsTemplateEngine();
    const error = await failure(engine, request('{{amiID "kube-node" "123"}}'));
    expect(error.message).toBe(`${DEPLOYMENT}:1: amiID needs AWS access; pass --values or run with --simulate`);
  });
});

describe('HandlebarsTemplateEngine: parsed template cache', () => {
  afterEach(() => jest.restoreAllMocks());

  it('parses a template content once per engine, whatever its path', async () => {
    // Arrange: spy on the parser of the instances the engines create
    const create = Handlebars.create.bind(Handlebars);
    const parse = jest.fn();
    jest.spyOn(Handlebars, 'create').mockImplementation(() => {
      const instance = create();
      const original = instance.parse.bind(instance);
      instance.parse = ((input: string) => {
        parse(input);
        return original(input);
      }) as typeof instance.parse;
      return instance;
    });
    const first = new HandlebarsTemplateEngine();
    const second = new HandlebarsTemplateEngine();
    // Act
    await first.render(request('{{Cluster.ID}}', { path: 'a/one.yaml' }));
    await first.render(request('{{Cluster.ID}}', { path: 'b/two.yaml' }));
    await first.render(request('{{Cluster.Environment}}'));
    await second.render(request('{{Cluster.ID}}'));
    // Assert
    expect(parse.mock.calls.map(([input]) => input)).toEqual([
      '{{Cluster.ID}}',
      '{{Cluster.Environment}}',
      '{{Cluster.ID}}',
    ]);
  });

  it('does not parse plain text at all', async () => {
    const create = Handlebars.create.bind(Handlebars);
    const parse = jest.fn();
    jest.spyOn(Handlebars, 'create').mockImplementation(() => {
      const instance = create();
      instance.parse = parse as unknown as typeof instance.parse;
      return instance;
    });
    const out = await new HandlebarsTemplateEngine().render(request('kind: CustomResourceDefinition\n  { a: b }\n'));
    expect(out).toBe('kind: CustomResourceDefinition\n  { a: b }\n');
    expect(parse).not.toHaveBeenCalled();
  });
});
