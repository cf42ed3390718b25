import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The ASL files and their `${Placeholders}`, shared by whoever fills them: the CDK constructs (function and state
 * machine ARNs), the in-process runner (local stand-ins) and the static ASL tests. A Lambda task state names its
 * function `${<TaskName>FunctionArn}` (the task catalogue's name); a child state machine is
 * `${<MachineKey in PascalCase>StateMachineArn}`.
 */

/** ASL files, relative to the repository root. */
export const ASL_FILES = {
  clusterUpdate: 'statemachines/cluster-update.asl.json',
  nodePoolRollout: 'statemachines/node-pool-rollout.asl.json',
} as const;
export type StateMachineKey = keyof typeof ASL_FILES;

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PLACEHOLDER = /\$\{([A-Za-z0-9_]+)\}/g;
const FUNCTION_SUFFIX = 'FunctionArn';
const STATE_MACHINE_SUFFIX = 'StateMachineArn';

const BUNDLED = new Map<StateMachineKey, string>();

/**
 * Where the files are not beside the code (a Lambda bundle, whose rehearsals run the state machines in process):
 * the texts the bundle carries, read instead of the files.
 */
export function provideAsl(texts: Readonly<Record<StateMachineKey, string>>): void {
  for (const [key, text] of Object.entries(texts) as [StateMachineKey, string][]) BUNDLED.set(key, text);
}

/** The text of an ASL file as committed (or as the bundle carries it). */
export function readAsl(key: StateMachineKey): string {
  return BUNDLED.get(key) ?? readFileSync(join(REPO_ROOT, ASL_FILES[key]), 'utf8');
}

export function functionPlaceholder(taskName: string): string {
  return `${taskName}${FUNCTION_SUFFIX}`;
}

export function stateMachinePlaceholder(key: StateMachineKey): string {
  return `${key[0]!.toUpperCase()}${key.slice(1)}${STATE_MACHINE_SUFFIX}`;
}

/** The distinct `${Key}` names in an ASL text, sorted. */
export function placeholdersIn(aslText: string): string[] {
  return [...new Set([...aslText.matchAll(PLACEHOLDER)].map((match) => match[1]!))].sort();
}

/** The tasks an ASL text invokes (from its `${<Task>FunctionArn}` placeholders), sorted. */
export function taskNamesIn(aslText: string): string[] {
  return placeholdersIn(aslText)
    .filter((key) => key.endsWith(FUNCTION_SUFFIX))
    .map((key) => key.slice(0, -FUNCTION_SUFFIX.length));
}

/** The child state machines an ASL text starts (from its `${<Key>StateMachineArn}` placeholders). */
export function childMachinesIn(aslText: string): StateMachineKey[] {
  const keys = Object.keys(ASL_FILES) as StateMachineKey[];
  const placeholders = new Set(placeholdersIn(aslText));
  return keys.filter((key) => placeholders.has(stateMachinePlaceholder(key)));
}

/**
 * Replace every `${Key}` as Step Functions' `definitionSubstitutions` does. Throws naming the keys that have no
 * value, so a renamed placeholder fails loudly instead of reaching AWS as a literal `${...}`.
 */
export function substitutePlaceholders(aslText: string, values: Readonly<Record<string, string>>): string {
  const missing = placeholdersIn(aslText).filter((key) => !(key in values));
  if (missing.length > 0) {
    const have = Object.keys(values).sort().join(', ') || 'none';
    throw new Error(`No substitution for ${missing.map((key) => `\${${key}}`).join(', ')} (have: ${have})`);
  }
  return aslText.replace(PLACEHOLDER, (_, key: string) => values[key]!);
}
