import { childMachinesIn, readAsl, stateMachinePlaceholder, substitutePlaceholders, taskNamesIn } from '../asl-files';
import { functionPlaceholder, type StateMachineKey } from '../asl-files';

/** The ASL as deployed, with `${Placeholders}` replaced by local stand-in ARNs. */
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

export const LOCAL_ARN_PREFIX = 'arn:aws:lambda:local:000000000000:function:';
export const LOCAL_STATE_MACHINE_PREFIX = 'arn:aws:states:local:000000000000:stateMachine:';

/** A state machine's definition for the in-process runner: functions and child machines get local ARNs. */
export function loadDefinition(key: StateMachineKey): AslDefinition {
  const text = readAsl(key);
  const values: Record<string, string> = {};
  for (const task of taskNamesIn(text)) values[functionPlaceholder(task)] = `${LOCAL_ARN_PREFIX}${task}`;
  for (const child of childMachinesIn(text))
    values[stateMachinePlaceholder(child)] = `${LOCAL_STATE_MACHINE_PREFIX}${child}`;
  return JSON.parse(substitutePlaceholders(text, values)) as AslDefinition;
}

/** Every state, also inside Map item processors. */
export function walkStates(definition: Pick<AslDefinition, 'States'>): { name: string; state: AslState }[] {
  return Object.entries(definition.States).flatMap(([name, state]) => [
    { name, state },
    ...(state.ItemProcessor ? walkStates(state.ItemProcessor) : []),
  ]);
}
