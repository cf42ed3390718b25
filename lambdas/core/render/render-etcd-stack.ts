import { ConfigError } from '../../shared/errors';
import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateEngine } from '../../ports/template-engine';
import type { Cluster } from '../model/cluster';
import { mainSource, sourceTemplate, type SourceTemplate } from './config-layout';
import {
  ETCD_FILES_TEMPLATE,
  ETCD_KMS_KEY_ALIAS,
  ETCD_STACK_POLICY,
  ETCD_STACK_TAGS,
  ETCD_STACK_TEMPLATE,
  etcdStackName,
} from './etcd-settings';
import type { FilesBundle } from './files-bundle';
import { poolInstanceInfo } from './instance-info';
import type { Values } from './pool-values';
import { renderContext } from './render-context';
import { renderFilesBundle } from './render-node-pool';
import { namedStack, renderCfnTemplate, type RenderedStack } from './render-stack';

export interface EtcdStackRender {
  readonly stack: RenderedStack;
  readonly files: FilesBundle;
  /**
   * The values after the etcd step, which the main stack and everything after it see (CLM shares one map):
   * `etcd_kms_key_arn`, `etcd_instance_type_info` and `S3GeneratedFilesPath` (the etcd bundle's, until a pool sets its own).
   */
  readonly values: Values;
}

/**
 * The etcd stack (CLM §6.2 step 10), for a cluster with `manage_etcd_stack: "true"`, from `cluster/etcd/` of the first
 * source: `Values.etcd_kms_key_arn` (the key of `alias/etcd-cluster`, which the values provider resolved) and
 * `Values.etcd_instance_type_info` (config item `etcd_instance_type`), `files.yaml` → the files bundle under
 * `<LocalID>/etcd/` encrypted with that key → `Values.S3GeneratedFilesPath`, then `stack.yaml` → the stack
 * `etcd_stack_name` (default `etcd-cluster-etcd`), tagged `application=kubernetes`, `component=etcd-cluster`, updated
 * under CLM's stack policy.
 */
export async function renderEtcdStack(input: {
  readonly cluster: Cluster;
  readonly snapshots: readonly ConfigSnapshot[];
  readonly values: Values;
  readonly engine: TemplateEngine;
}): Promise<EtcdStackRender> {
  const { cluster, engine } = input;
  const template = (path: string): SourceTemplate => {
    const main = mainSource(input.snapshots);
    const found = sourceTemplate(main, path);
    if (!found)
      throw new ConfigError(`manage_etcd_stack is "true", but the config has no ${path}`, {
        location: { clusterId: cluster.id, file: `${main.sourceName}/${path}` },
      });
    return found;
  };
  const values: Record<string, unknown> = withEtcdInstanceInfo(cluster, input.values);
  const keyArn = values.etcd_kms_key_arn;
  if (typeof keyArn !== 'string' || !keyArn)
    throw new ConfigError(
      `the etcd stack needs the key of ${ETCD_KMS_KEY_ALIAS} (Values.etcd_kms_key_arn), not given`,
      {
        location: { clusterId: cluster.id },
      },
    );
  const files = await renderFilesBundle({ cluster, engine }, template(ETCD_FILES_TEMPLATE), values, 'etcd', {
    source: ETCD_KMS_KEY_ALIAS,
    id: keyArn,
  });
  const stackTemplate = template(ETCD_STACK_TEMPLATE);
  const rendered = await renderCfnTemplate(engine, {
    template: stackTemplate,
    context: renderContext(cluster, values),
  });
  const stack = namedStack(rendered, stackTemplate.path, {
    name: etcdStackName(cluster),
    kind: 'etcd',
    tags: { ...ETCD_STACK_TAGS },
  });
  return { stack: { ...stack, stackPolicy: ETCD_STACK_POLICY }, files, values };
}

/**
 * `Values.etcd_instance_type_info`: CLM's instance info of config item `etcd_instance_type` (required), from the facts
 * the values provider gathered.
 */
export function withEtcdInstanceInfo(cluster: Cluster, values: Values): Record<string, unknown> {
  const type = cluster.configItems.etcd_instance_type;
  const info = type ? poolInstanceInfo([type], values) : undefined;
  if (!info)
    throw new ConfigError(
      type
        ? `etcd_instance_type ${type}: its facts are unknown (offline: add it to --values under lookups.instance_types)`
        : 'manage_etcd_stack is "true", but config item etcd_instance_type is not set',
      { location: { clusterId: cluster.id, field: 'config_items.etcd_instance_type' } },
    );
  return { ...values, etcd_instance_type_info: info };
}
