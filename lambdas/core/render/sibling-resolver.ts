import { posix } from 'node:path';
import type { ConfigSnapshot } from '../../ports/config-source';
import type { TemplateFile } from '../../ports/template-engine';
import type { SourceTemplate } from './config-layout';
import { sourceTemplate } from './config-layout';

/**
 * `manifestHash "configmap.yaml"` resolves a path relative to the calling template's directory, within
 * the same config source (CLM §4.4). Paths leaving the source root resolve to nothing.
 */
export function siblingResolver(
  snapshot: ConfigSnapshot,
  template: Pick<SourceTemplate, 'sourcePath'>,
): (relativePath: string) => TemplateFile | undefined {
  const dir = posix.dirname(template.sourcePath);
  return (relativePath) => {
    const resolved = posix.normalize(posix.join(dir, relativePath));
    if (resolved.startsWith('../') || resolved === '..' || posix.isAbsolute(relativePath)) return undefined;
    return sourceTemplate(snapshot, resolved);
  };
}
