// Test support: load the ASL files and walk their states (including Map ItemProcessors) for the static checks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASL_FILES, substitutePlaceholders, placeholdersIn } from '../../lambdas/runtime/asl-files';
import type { StateMachineKey } from '../../lambdas/runtime/asl-files';

export const REPO_ROOT = join(__dirname, '..', '..');

export interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
  JitterStrategy?: string;
}

export interface Catcher {
  ErrorEquals: string[];
  Next: string;
  ResultPath?: string | null;
}

export interface ChoiceRule {
  Variable?: string;
  Next?: string;
  And?: ChoiceRule[];
  Or?: ChoiceRule[];
  Not?: ChoiceRule;
  [operator: string]: unknown;
}

export interface AslState {
  Type: string;
  Next?: string;
  End?: boolean;
  Default?: string;
  Choices?: ChoiceRule[];
  Resource?: string;
  Parameters?: Record<string, any>;
  ItemSelector?: Record<string, any>;
  ResultSelector?: Record<string, any>;
  ResultPath?: string | null;
  SecondsPath?: string;
  ErrorPath?: string;
  CausePath?: string;
  ItemsPath?: string;
  MaxConcurrency?: number;
  Retry?: Retrier[];
  Catch?: Catcher[];
  ItemProcessor?: AslMachine;
  [field: string]: unknown;
}

export interface AslMachine {
  StartAt: string;
  States: Record<string, AslState>;
  Comment?: string;
}

export interface WalkedState {
  readonly name: string;
  readonly state: AslState;
  /** The Map state whose ItemProcessor holds this state, if any. */
  readonly enclosingMap?: WalkedState;
  /** The States object this state lives in (its transition scope). */
  readonly scope: AslMachine;
}

export function aslText(key: StateMachineKey): string {
  return readFileSync(join(REPO_ROOT, ASL_FILES[key]), 'utf8');
}

export function loadAsl(key: StateMachineKey): AslMachine {
  return JSON.parse(aslText(key)) as AslMachine;
}

/** Fake but well-formed ARNs for every placeholder (Lambda functions or state machines). */
export function fakeArns(text: string, account = '123456789012', region = 'eu-central-1'): Record<string, string> {
  return Object.fromEntries(
    placeholdersIn(text).map((key) => [
      key,
      key.endsWith('StateMachineArn')
        ? `arn:aws:states:${region}:${account}:stateMachine:${key.replace(/Arn$/, '')}`
        : `arn:aws:lambda:${region}:${account}:function:${key.replace(/Arn$/, '')}`,
    ]),
  );
}

/** The ASL as deployed, with fake ARNs in place of the placeholders. */
export function loadSubstitutedAsl(key: StateMachineKey): AslMachine {
  const text = aslText(key);
  return JSON.parse(substitutePlaceholders(text, fakeArns(text))) as AslMachine;
}

export function walkStates(machine: AslMachine, enclosingMap?: WalkedState): WalkedState[] {
  const out: WalkedState[] = [];
  for (const [name, state] of Object.entries(machine.States)) {
    const walked: WalkedState = { name, state, enclosingMap, scope: machine };
    out.push(walked);
    if (state.ItemProcessor) out.push(...walkStates(state.ItemProcessor, walked));
  }
  return out;
}

/** Every state name a state may transition to (Next, Choice rules and Default, Catch). */
export function transitionsOf(state: AslState): string[] {
  const targets: string[] = [];
  if (state.Next) targets.push(state.Next);
  if (state.Default) targets.push(state.Default);
  for (const rule of state.Choices ?? []) if (rule.Next) targets.push(rule.Next);
  for (const catcher of state.Catch ?? []) targets.push(catcher.Next);
  return targets;
}

/** Names of the states reachable from StartAt within one States scope. */
export function reachable(machine: AslMachine): Set<string> {
  const seen = new Set<string>();
  const queue = [machine.StartAt];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name) || !machine.States[name]) continue;
    seen.add(name);
    queue.push(...transitionsOf(machine.States[name]));
  }
  return seen;
}

/** Every data-test expression of a Choice rule, flattening And/Or/Not. */
export function flattenRules(rules: readonly ChoiceRule[]): ChoiceRule[] {
  return rules.flatMap((rule) => [
    ...(rule.Variable ? [rule] : []),
    ...flattenRules(rule.And ?? []),
    ...flattenRules(rule.Or ?? []),
    ...(rule.Not ? flattenRules([rule.Not]) : []),
  ]);
}

/** `${Key}` placeholder a Task's Resource names, or undefined for service integrations. */
export function placeholderOf(state: AslState): string | undefined {
  return /^\$\{([A-Za-z0-9_]+)\}$/.exec(state.Resource ?? '')?.[1];
}

/** Both state machines, by their key in lambdas/runtime/asl-files.ts. */
export const MACHINES = Object.keys(ASL_FILES) as StateMachineKey[];

/** Every state of the machine, Map iterators included. */
export function states(key: StateMachineKey): WalkedState[] {
  return walkStates(loadAsl(key));
}

export function ofType(key: StateMachineKey, type: string): WalkedState[] {
  return states(key).filter((s) => s.state.Type === type);
}

/** The Task states that invoke one of our Lambda functions. */
export function lambdaTasks(key: StateMachineKey): WalkedState[] {
  return ofType(key, 'Task').filter((s) => placeholderOf(s.state)?.endsWith('FunctionArn'));
}
