import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The ASL files exactly as deployed, with `${Placeholders}` replaced by local stand-in ARNs. */
export interface AslDefinition {
  readonly StartAt: string;
  readonly States: Record<string, AslState>;
  readonly [key: string]: unknown;
}

export interface AslState {
  readonly Type: string;
  readonly Resource?: string;
  readonly ItemProcessor?: { readonly States: Record<string, AslState>; readonly StartAt: string };
  readonly [key: string]: unknown;
}

const STATEMACHINES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'statemachines');

export const LOCAL_ARN_PREFIX = 'arn:aws:lambda:local:000000000000:function:';
export const LOCAL_STATE_MACHINE_PREFIX = 'arn:aws:states:local:000000000000:stateMachine:';

export function loadDefinition(name: 'cluster-update' | 'node-pool-rollout'): AslDefinition {
  const text = readFileSync(join(STATEMACHINES_DIR, `${name}.asl.json`), 'utf8');
  const substituted = text
    .replace(/\$\{(\w+)FunctionArn\}/g, (_match, task: string) => `${LOCAL_ARN_PREFIX}${task}`)
    .replace(/\$\{(\w+)StateMachineArn\}/g, (_match, machine: string) => `${LOCAL_STATE_MACHINE_PREFIX}${machine}`);
  return JSON.parse(substituted) as AslDefinition;
}

/** Every Task state (also inside Map item processors), with its Resource. */
export function taskStates(definition: Pick<AslDefinition, 'States'>): { name: string; resource: string }[] {
  const found: { name: string; resource: string }[] = [];
  for (const [name, state] of Object.entries(definition.States)) {
    if (state.Type === 'Task' && state.Resource) found.push({ name, resource: state.Resource });
    if (state.ItemProcessor) found.push(...taskStates(state.ItemProcessor));
  }
  return found;
}

export function waitStates(definition: Pick<AslDefinition, 'States'>): string[] {
  const found: string[] = [];
  for (const [name, state] of Object.entries(definition.States)) {
    if (state.Type === 'Wait') found.push(name);
    if (state.ItemProcessor) found.push(...waitStates(state.ItemProcessor));
  }
  return found;
}
