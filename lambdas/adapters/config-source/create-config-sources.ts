import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseConfigSourceFlags } from '../../core/model/config-source-spec';
import type { ConfigSourceSpec } from '../../core/model/config-source-spec';
import type { ConfigSource } from '../../ports/config-source';
import { ConfigError } from '../../shared/errors';
import type { AdapterLogger } from '../registry/registry-logger';
import { DirectorySource } from './directory-source';
import { GitSource } from './git-source';
import type { GitSourceOptions } from './git-source';

export interface CreateConfigSourcesOptions {
  /** Relative directory paths resolve against this. */
  readonly cwd: string;
  /** Git mirrors live here (`--workdir`). @default `<os tmpdir>/clm-workdir` */
  readonly workdir?: string;
  /** Token for git sources over HTTPS. */
  readonly gitToken?: string;
  readonly gitTokenType?: GitSourceOptions['tokenType'];
  readonly logger?: AdapterLogger;
  /** Extra git options (fetch TTL, timeouts, an HTTP client for tests). */
  readonly git?: Pick<GitSourceOptions, 'fetchTtlMs' | 'timeoutMs' | 'http' | 'now'>;
}

/**
 * Open the config sources the flags name, in flag order (the first is the "main" source). Directory
 * sources must exist now (a typo fails at start, not mid-run); git sources are fetched lazily on the first
 * `resolveVersion`. Git URLs are `http://`, `https://` or `file://` (a repository on this machine, read in
 * place); no ssh: there is no git binary.
 */
export function createConfigSources(
  specs: readonly ConfigSourceSpec[],
  options: CreateConfigSourcesOptions,
): ConfigSource[] {
  return specs.map((spec) => (spec.kind === 'dir' ? directorySource(spec, options) : gitSource(spec, options)));
}

/** `--config-source` / `--directory` straight to sources. */
export function configSourcesFromFlags(
  flags: { readonly configSources?: readonly string[]; readonly directory?: string },
  options: CreateConfigSourcesOptions,
): ConfigSource[] {
  return createConfigSources(parseConfigSourceFlags(flags), options);
}

function directorySource(spec: ConfigSourceSpec, options: CreateConfigSourcesOptions): DirectorySource {
  const path = isAbsolute(spec.location) ? spec.location : resolve(options.cwd, spec.location);
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new ConfigError(`config source ${spec.name}: ${spec.location} (${path}) is not a directory`);
  return new DirectorySource({ name: spec.name, path, displayPath: spec.location });
}

function gitSource(spec: ConfigSourceSpec, options: CreateConfigSourcesOptions): GitSource {
  if (!/^(https?|file):\/\//i.test(spec.location)) {
    throw new ConfigError(
      `config source ${spec.name}: ${spec.location} is not an http(s) or file:// URL; ssh is not supported (a local repository is file:///path/to/repo)`,
    );
  }
  return new GitSource({
    ...options.git,
    name: spec.name,
    url: spec.location,
    workdir: options.workdir,
    token: options.gitToken,
    tokenType: options.gitTokenType,
    logger: options.logger,
  });
}
