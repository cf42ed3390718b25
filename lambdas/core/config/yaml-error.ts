import yaml from 'js-yaml';
import { ConfigError } from '../../shared/errors';
import { fastLoadAll } from './fast-yaml';
import { DATA_SCHEMA } from './yaml-data';

/** A js-yaml exception (or anything thrown while parsing) as a ConfigError naming the file and 1-based line. */
export function yamlError(error: unknown, file: string): ConfigError {
  if (error instanceof yaml.YAMLException) {
    const line = error.mark ? error.mark.line + 1 : undefined;
    return new ConfigError(`invalid YAML: ${error.reason}`, { cause: error, location: { file, line } });
  }
  return new ConfigError(`invalid YAML: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
    location: { file },
  });
}

/** Parse one YAML document (by default as data: no implicit dates, see yaml-data.ts); throws ConfigError with file and line. */
export function loadYaml(text: string, file: string, schema: yaml.Schema = DATA_SCHEMA): unknown {
  const fast = fastLoadAll(text, schema);
  if (fast?.length === 1) return fast[0];
  try {
    return yaml.load(text, { schema, filename: file });
  } catch (error) {
    throw yamlError(error, file);
  }
}
