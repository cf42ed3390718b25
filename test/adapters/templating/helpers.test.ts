/**
 * One-line templates per helper, through the real engine (as CLM's template_test.go does): what each helper
 * gives, and that its error cases fail the render with the path, the line and the helper's name.
 */
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import { CLM_HELPERS } from '../../../lambdas/adapters/templating/helpers';
import { TemplateRenderError } from '../../../lambdas/shared/errors';
import { HELPER_CASES } from './helper-cases';
import { HELPER_ERROR_CASES } from './helper-error-cases';
const PATH = 'main/cluster/manifests/01-test/foo.yaml';

const CONTEXT = {
  Cluster: {
    ID: 'aws:123456789012:eu-central-1:kube-1',
    InfrastructureAccount: 'aws:123456789012',
    Environment: 'production',
    ConfigItems: { list: 'a,b,c', empty: '', number: '42', taints: 'dedicated=x:NoSchedule' },
    NodePools: [
      { Name: 'default', Profile: 'worker-splitaz', ConfigItems: {}, MinSize: 6, MaxSize: 9 },
      {
        Name: 'db',
        Profile: 'worker-splitaz',
        ConfigItems: { labels: 'dedicated=db', taints: 'dedicated=db:NoSchedule' },
        MinSize: 0,
        MaxSize: 3,
      },
      { Name: 'master', Profile: 'master-default', ConfigItems: {}, MinSize: 1, MaxSize: 1 },
    ],
  },
  Values: { subnets: { 'eu-central-1a': 'subnet-a', 'eu-central-1b': 'subnet-b', '*': 'subnet-a,subnet-b' } },
  NodePool: null,
};

const engine = new HandlebarsTemplateEngine();
const render = (content: string): Promise<string> =>
  engine.render({ template: { path: PATH, content }, context: CONTEXT });

/** Renders and returns the TemplateRenderError it must throw. */
async function renderError(content: string): Promise<TemplateRenderError> {
  const error = await render(content).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TemplateRenderError))
    throw new Error(`expected a TemplateRenderError for ${content}, got ${String(error)}`);
  return error;
}

describe('CLM template helpers, one template each', () => {
  const cases = Object.entries(HELPER_CASES).flatMap(([helper, list]) =>
    list.map(([template, expected]) => [helper, template, expected] as const),
  );

  it.each(cases)('%s: %s', async (_helper, template, expected) => {
    // Act
    const output = await render(template);
    // Assert
    expect(output).toBe(expected);
  });
});

describe('CLM template helpers, error cases', () => {
  const cases = Object.entries(HELPER_ERROR_CASES).flatMap(([helper, list]) =>
    list.map(([template, message]) => [helper, template, message] as const),
  );

  it.each(cases)('%s: %s', async (helper, template, message) => {
    // Act
    const error = await renderError(`line one\n${template}`);
    // Assert: the path, the line (2) and the helper's name lead the message
    expect(error.message).toContain(message);
    expect(error.message).toMatch(new RegExp(`^${PATH}:2: `));
    expect(error.message).toContain(helper);
    expect(error.location).toMatchObject({ file: PATH, line: 2 });
  });

  it('every registered helper has at least one test here or in the lookup, key and manifestHash suites', () => {
    const covered = new Set([...Object.keys(HELPER_CASES), ...Object.keys(HELPER_ERROR_CASES)]);
    expect(Object.keys(CLM_HELPERS).filter((name) => !covered.has(name))).toEqual([]);
  });
});

describe('helper calls that handlebars allows but CLM helpers do not', () => {
  it('fails a helper used as a block', async () => {
    const error = await renderError('{{#base64 "x"}}y{{/base64}}');
    expect(error.message).toBe(`${PATH}:1: base64: is not a block helper; call it as {{base64 …}} or (base64 …)`);
  });

  it('fails key=value arguments', async () => {
    const error = await renderError('{{base64 "x" pad=true}}');
    expect(error.message).toBe(`${PATH}:1: base64: takes no key=value arguments`);
  });
});
