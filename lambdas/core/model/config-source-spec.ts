import { ValidationError } from '../../shared/errors';

/** One config source as given on the command line, before anything is opened. */
export interface ConfigSourceSpec {
  readonly name: string;
  readonly kind: 'git' | 'dir';
  /** The git URL or the directory path, as given. */
  readonly location: string;
}

/**
 * Source names end up in `override_channel` (`name=ref,…`), in combined version ids (`name=<id>;…`) and
 * in manifest component names (`name/component`), so they may not contain `=`, `;`, `,`, `/` or spaces.
 */
export const SOURCE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const KINDS: Record<string, ConfigSourceSpec['kind']> = { git: 'git', dir: 'dir', directory: 'dir' };

/** The source `--directory PATH` stands for (CLM: a single directory source named `main`). */
export const DIRECTORY_SOURCE_NAME = 'main';

/**
 * Parse one `--config-source` value: `NAME:git:URL`, `NAME:dir:PATH` or `NAME:directory:PATH`. Only the
 * first two colons split, so URLs keep theirs (`main:git:https://github.com/org/repo.git`).
 */
export function parseConfigSourceFlag(flag: string): ConfigSourceSpec {
  const first = flag.indexOf(':');
  const second = first < 0 ? -1 : flag.indexOf(':', first + 1);
  const usage = 'expected NAME:git:URL or NAME:dir:PATH';
  if (second < 0) throw new ValidationError(`--config-source ${JSON.stringify(flag)}: ${usage}`);
  const name = flag.slice(0, first);
  const kindText = flag.slice(first + 1, second);
  const location = flag.slice(second + 1);
  const kind = KINDS[kindText];
  if (!SOURCE_NAME_PATTERN.test(name)) {
    throw new ValidationError(
      `--config-source ${JSON.stringify(flag)}: the name ${JSON.stringify(name)} must match ${SOURCE_NAME_PATTERN.source}`,
    );
  }
  if (!kind) {
    throw new ValidationError(
      `--config-source ${JSON.stringify(flag)}: unknown source type ${JSON.stringify(kindText)}; use git, dir or directory`,
    );
  }
  if (location === '')
    throw new ValidationError(
      `--config-source ${JSON.stringify(flag)}: the ${kind === 'git' ? 'URL' : 'path'} is empty; ${usage}`,
    );
  return { name, kind, location };
}

/**
 * All config sources from the flags, in flag order: repeated `--config-source`, or `--directory PATH`
 * (one source named `main`). Both together, none at all, or a name used twice are usage errors.
 */
export function parseConfigSourceFlags(flags: {
  readonly configSources?: readonly string[];
  readonly directory?: string;
}): ConfigSourceSpec[] {
  const configSources = flags.configSources ?? [];
  if (flags.directory !== undefined && configSources.length > 0) {
    throw new ValidationError(
      '--directory and --config-source cannot be used together; use --config-source main:dir:PATH alongside the others',
    );
  }
  if (flags.directory !== undefined) {
    if (flags.directory === '') throw new ValidationError('--directory: the path is empty');
    return [{ name: DIRECTORY_SOURCE_NAME, kind: 'dir', location: flags.directory }];
  }
  if (configSources.length === 0) {
    throw new ValidationError(
      'at least one --config-source NAME:git:URL or NAME:dir:PATH (or --directory PATH) is required',
    );
  }
  const specs = configSources.map(parseConfigSourceFlag);
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.name))
      throw new ValidationError(`--config-source: the name ${spec.name} is used twice; source names must be unique`);
    seen.add(spec.name);
  }
  return specs;
}
