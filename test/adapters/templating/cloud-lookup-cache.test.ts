// Cloud lookups in templates (CloudLookupCache through HandlebarsTemplateEngine): one port call per argument set,
// passes until the values settle, errors that name the helper.
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import type { CloudLookups, InstanceTypeInfo } from '../../../lambdas/ports/template-engine';
import { TemplateRenderError, ThrottledError, TransientApiError, isRetryable } from '../../../lambdas/shared/errors';
import { DEPLOYMENT, failure, request } from './template-engine-fixtures';

const NO_DISKS = { instanceStorageDevices: 0, instanceStorageDeviceSizeGB: 0 };

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
