/** Arrange helpers shared by the HandlebarsTemplateEngine tests: a context, a render request, its failure. */
import { createHash } from 'node:crypto';
import type { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import type { RenderRequest, TemplateFile } from '../../../lambdas/ports/template-engine';
import { TemplateRenderError } from '../../../lambdas/shared/errors';

export const DEPLOYMENT = 'main/cluster/manifests/coredns/deployment.yaml';

export const CONTEXT = {
  Cluster: {
    ID: 'aws:123456789012:eu-central-1:kube-1',
    Environment: 'production',
    ConfigItems: { coredns_cpu: '100m', labels: 'a=<b>&c' },
    NodePools: [{ Name: 'default-worker', Profile: 'worker-splitaz', ConfigItems: { taints: '' } }],
  },
  Values: { hosted_zone: 'example.org' },
  NodePool: null,
};

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A render request for `content` at `path` (default DEPLOYMENT) whose siblings are `siblings`, by relative path. */
export function request(
  content: string,
  options: { path?: string; siblings?: Record<string, string> } = {},
): RenderRequest {
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

/** Renders and returns the TemplateRenderError it must throw. */
export async function failure(engine: HandlebarsTemplateEngine, req: RenderRequest): Promise<TemplateRenderError> {
  const error = await engine.render(req).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TemplateRenderError)) throw new Error(`expected a TemplateRenderError, got ${String(error)}`);
  return error;
}
