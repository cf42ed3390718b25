import { awsAccountId } from '../../core/model/cluster';
import type { CloudLookups, RenderRequest, TemplateEngine } from '../../ports/template-engine';
import { HandlebarsTemplateEngine } from '../../adapters/templating/handlebars-template-engine';

/**
 * The template engine of a Lambda task. `amiID` and `instanceType*` must ask EC2 in the account and region of the
 * cluster being rendered, and a warm container renders many clusters, so there is one engine (and one lookup cache)
 * per account and region, picked from the render context's `Cluster.InfrastructureAccount` and `Cluster.Region`.
 * Lookups are only built when a template calls one.
 */
export function templatesFactory(
  lookupsFor: (accountId: string, region: string) => CloudLookups,
): () => TemplateEngine {
  return () => {
    const engines = new Map<string, TemplateEngine>();
    return {
      render(request: RenderRequest): Promise<string> {
        const target = lookupTarget(request.context);
        const key = target ? `${target.accountId}/${target.region}` : '';
        let engine = engines.get(key);
        if (!engine) {
          engine = new HandlebarsTemplateEngine(
            target ? { lookups: deferred(() => lookupsFor(target.accountId, target.region)) } : {},
          );
          engines.set(key, engine);
        }
        return engine.render(request);
      },
    };
  };
}

function lookupTarget(context: Readonly<Record<string, unknown>>): { accountId: string; region: string } | undefined {
  const cluster = context.Cluster as { InfrastructureAccount?: unknown; Region?: unknown } | null | undefined;
  if (typeof cluster?.InfrastructureAccount !== 'string' || typeof cluster.Region !== 'string') return undefined;
  return { accountId: awsAccountId(cluster.InfrastructureAccount), region: cluster.Region };
}

function deferred(lookups: () => CloudLookups): CloudLookups {
  return {
    amiId: async (name, ownerId) => lookups().amiId(name, ownerId),
    instanceType: async (type) => lookups().instanceType(type),
  };
}
