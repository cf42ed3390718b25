// Test support: the worst-case number of history events of one execution of an ASL state machine, computed from the
// definition itself. Every loop (a strongly connected set of states) must be bounded by a counter guard: a Choice rule
// `counter >= N` (NumericGreaterThanEquals, also inside an And) whose Next leaves the loop, ahead of every rule that
// stays in it, with every cycle of the loop passing a state that increments the counter. A loop without one is
// reported, naming its states.
import type { AslMachine, AslState, ChoiceRule } from './asl-graph';
import { findCycle, stronglyConnected } from './graph-cycles';

/**
 * History events per state, named by the event types of the Step Functions API reference, HistoryEvent `type`
 * (https://docs.aws.amazon.com/step-functions/latest/apireference/API_HistoryEvent.html): each state writes its
 * `…StateEntered`/`…StateExited` pair (a Fail state only FailStateEntered), a Lambda task its LambdaFunction*
 * events, a service integration its Task* events, a Map its MapState* and, per item, MapIteration* events.
 */
export const HISTORY_EVENTS = {
  /** ExecutionStarted, then ExecutionSucceeded | ExecutionFailed | ExecutionTimedOut | ExecutionAborted. */
  EXECUTION: 2,
  /**
   * A Task whose Resource is a Lambda function ARN: TaskStateEntered, LambdaFunctionScheduled, LambdaFunctionStarted,
   * LambdaFunctionSucceeded | LambdaFunctionFailed | LambdaFunctionTimedOut, TaskStateExited.
   */
  LAMBDA_TASK: 5,
  /** Each retried Lambda attempt: LambdaFunctionScheduled, LambdaFunctionStarted, LambdaFunctionFailed | TimedOut. */
  LAMBDA_RETRY: 3,
  /**
   * A service integration Task (`arn:aws:states:::…`, e.g. `states:startExecution.sync:2`,
   * `lambda:invoke.waitForTaskToken`): TaskStateEntered, TaskScheduled, TaskStarted, TaskSubmitted,
   * TaskSucceeded | TaskFailed | TaskTimedOut, TaskStateExited.
   */
  SERVICE_TASK: 6,
  /** Each retried service integration attempt: TaskScheduled, TaskStarted, TaskSubmitted, TaskFailed | TaskTimedOut. */
  SERVICE_RETRY: 4,
  /** ChoiceStateEntered, ChoiceStateExited. */
  CHOICE: 2,
  /** WaitStateEntered, WaitStateExited. */
  WAIT: 2,
  /** PassStateEntered, PassStateExited. */
  PASS: 2,
  /** SucceedStateEntered, SucceedStateExited. */
  SUCCEED: 2,
  /** FailStateEntered (the execution's ExecutionFailed is counted in EXECUTION). */
  FAIL: 1,
  /** An inline Map: MapStateEntered, MapStateStarted, MapStateSucceeded | MapStateFailed, MapStateExited. */
  MAP: 4,
  /** Each item of an inline Map: MapIterationStarted, MapIterationSucceeded | MapIterationFailed. */
  MAP_ITERATION: 2,
} as const;

/** The retries a Retrier allows when it sets no MaxAttempts (Amazon States Language). */
export const DEFAULT_MAX_ATTEMPTS = 3;

export interface BoundOptions {
  /**
   * Counters a Task writes (path → why it counts): the Task whose ResultPath is the counter's parent path adds one
   * to it on every call, and nothing resets it within an execution. Counters a Pass state adds one to with
   * `States.MathAdd(<path>, 1)` are found in the definition.
   */
  readonly taskCounters: Readonly<Record<string, string>>;
  /** The most items each Map's ItemsPath can hold (path → bound). */
  readonly mapItems: Readonly<Record<string, number>>;
  /**
   * ItemsPaths whose Maps share one bound (path → the most items all of them hold together in one execution): the
   * worst case puts every item in the Map whose item costs most, and each Map adds its own fixed events.
   */
  readonly sharedMapItems?: Readonly<Record<string, number>>;
}

export interface Loop {
  readonly states: readonly string[];
  readonly counter: string;
  readonly bound: number;
  /** Worst-case events of one pass through every state of the loop. */
  readonly passEvents: number;
}

export interface HistoryBound {
  readonly events: number;
  readonly loops: readonly Loop[];
}

export class UnboundedLoopError extends Error {}

interface Guard {
  readonly state: string;
  readonly rule: number;
  readonly counter: string;
  readonly bound: number;
}

/** Worst-case history events of one execution of `machine` (a Map's ItemProcessor: of one item, without EXECUTION). */
export function historyBound(machine: AslMachine, options: BoundOptions, topLevel = true): HistoryBound {
  const names = Object.keys(machine.States);
  const edges = new Map(names.map((n) => [n, successors(machine.States[n])]));
  const components = stronglyConnected(names, edges);
  const componentOf = new Map<string, number>();
  components.forEach((c, i) => c.forEach((n) => componentOf.set(n, i)));
  const loops: Loop[] = [];
  const nested: Loop[] = [];
  // Per shared ItemsPath: the dearest item of the Maps that share it (their items are counted once, below).
  const sharedItem = new Map<string, number>();
  const cost = (name: string): number => {
    const { events, loops: inner } = stateEvents(name, machine.States[name], options, sharedItem);
    nested.push(...inner);
    return events;
  };
  const costs = new Map(names.map((n) => [n, cost(n)]));
  const passEvents = components.map((c) => c.reduce((sum, n) => sum + costs.get(n)!, 0));
  components.forEach((component, i) => {
    const isLoop = component.length > 1 || edges.get(component[0])!.includes(component[0]);
    if (isLoop) loops.push(boundLoop(machine, component, edges, options, passEvents[i]));
  });
  // Longest path over the components (each passed once), from StartAt.
  const longest = new Map<number, number>();
  const walk = (c: number): number => {
    const known = longest.get(c);
    if (known !== undefined) return known;
    const next = new Set(components[c].flatMap((n) => edges.get(n)!.map((m) => componentOf.get(m)!)));
    next.delete(c);
    const best = passEvents[c] + Math.max(0, ...[...next].map(walk));
    longest.set(c, best);
    return best;
  };
  const once = walk(componentOf.get(machine.StartAt)!);
  // Each counter's iterations, spent on the dearest loop it guards (a counter is never reset within an execution).
  const byCounter = new Map<string, { bound: number; pass: number }>();
  for (const loop of loops) {
    const seen = byCounter.get(loop.counter);
    byCounter.set(loop.counter, {
      bound: Math.max(seen?.bound ?? 0, loop.bound),
      pass: Math.max(seen?.pass ?? 0, loop.passEvents),
    });
  }
  const repeated = [...byCounter.values()].reduce((sum, c) => sum + c.bound * c.pass, 0);
  const shared = [...sharedItem].reduce((sum, [path, item]) => sum + options.sharedMapItems![path]! * item, 0);
  return {
    events: (topLevel ? HISTORY_EVENTS.EXECUTION : 0) + once + repeated + shared,
    loops: [...loops, ...nested],
  };
}

function successors(state: AslState): string[] {
  const next = [
    state.Next,
    state.Default,
    ...(state.Choices ?? []).map((r) => r.Next),
    ...(state.Catch ?? []).map((c) => c.Next),
  ];
  return [...new Set(next.filter((n): n is string => typeof n === 'string'))];
}

function retries(state: AslState): number {
  return (state.Retry ?? []).reduce((sum, r) => sum + (r.MaxAttempts ?? DEFAULT_MAX_ATTEMPTS), 0);
}

function stateEvents(
  name: string,
  state: AslState,
  options: BoundOptions,
  sharedItem: Map<string, number>,
): HistoryBound {
  switch (state.Type) {
    case 'Task': {
      const service = typeof state.Resource === 'string' && state.Resource.startsWith('arn:aws:states:::');
      return {
        events: service
          ? HISTORY_EVENTS.SERVICE_TASK + retries(state) * HISTORY_EVENTS.SERVICE_RETRY
          : HISTORY_EVENTS.LAMBDA_TASK + retries(state) * HISTORY_EVENTS.LAMBDA_RETRY,
        loops: [],
      };
    }
    case 'Choice':
      return { events: HISTORY_EVENTS.CHOICE, loops: [] };
    case 'Wait':
      return { events: HISTORY_EVENTS.WAIT, loops: [] };
    case 'Pass':
      return { events: HISTORY_EVENTS.PASS, loops: [] };
    case 'Succeed':
      return { events: HISTORY_EVENTS.SUCCEED, loops: [] };
    case 'Fail':
      return { events: HISTORY_EVENTS.FAIL, loops: [] };
    case 'Map': {
      const path = state.ItemsPath ?? '';
      const item = historyBound(state.ItemProcessor!, options, false);
      if (options.sharedMapItems?.[path] !== undefined) {
        const one = HISTORY_EVENTS.MAP_ITERATION + item.events;
        sharedItem.set(path, Math.max(sharedItem.get(path) ?? 0, one));
        return { events: HISTORY_EVENTS.MAP, loops: item.loops };
      }
      const items = options.mapItems[path];
      if (items === undefined)
        throw new UnboundedLoopError(`Map ${name}: no bound on the items of ItemsPath ${String(state.ItemsPath)}`);
      return {
        events: HISTORY_EVENTS.MAP + items * (HISTORY_EVENTS.MAP_ITERATION + item.events),
        loops: item.loops,
      };
    }
    default:
      throw new Error(`State ${name}: no history event count for type ${state.Type}`);
  }
}

/** The counter a Pass state adds one to (`"x.$": "States.MathAdd($.p.x, 1)"` with ResultPath `$.p`), if any. */
function passCounter(state: AslState): string | undefined {
  if (state.Type !== 'Pass' || typeof state.ResultPath !== 'string') return undefined;
  for (const [key, value] of Object.entries(state.Parameters ?? {})) {
    const path = `${state.ResultPath}.${key.replace(/\.\$$/, '')}`;
    if (typeof value === 'string' && value.replace(/\s/g, '') === `States.MathAdd(${path},1)`) return path;
  }
  return undefined;
}

function guardOf(rule: ChoiceRule, counters: ReadonlySet<string>): { counter: string; bound: number } | undefined {
  const direct = (r: ChoiceRule) => {
    if (typeof r.Variable !== 'string' || !counters.has(r.Variable)) return undefined;
    if (typeof r.NumericGreaterThanEquals === 'number')
      return { counter: r.Variable, bound: r.NumericGreaterThanEquals };
    if (typeof r.NumericGreaterThan === 'number') return { counter: r.Variable, bound: r.NumericGreaterThan + 1 };
    return undefined;
  };
  return direct(rule) ?? (rule.And ?? []).map(direct).find((g) => g !== undefined);
}

function boundLoop(
  machine: AslMachine,
  component: readonly string[],
  edges: ReadonlyMap<string, readonly string[]>,
  options: BoundOptions,
  passEvents: number,
): Loop {
  const inside = new Set(component);
  const incrementers = new Map<string, string[]>();
  const counters = new Set(Object.keys(options.taskCounters));
  for (const name of component) {
    const state = machine.States[name];
    const pass = passCounter(state);
    if (pass) counters.add(pass);
    for (const counter of counters) {
      const parent = counter.slice(0, counter.lastIndexOf('.'));
      const writes =
        (counter in options.taskCounters && state.Type === 'Task' && state.ResultPath === parent) || pass === counter;
      if (writes) incrementers.set(counter, [...(incrementers.get(counter) ?? []), name]);
    }
  }
  const guards: Guard[] = [];
  for (const name of component) {
    const state = machine.States[name];
    if (state.Type !== 'Choice') continue;
    const index = (state.Choices ?? []).findIndex((r) => {
      const g = guardOf(r, counters);
      return g !== undefined && r.Next !== undefined && !inside.has(r.Next);
    });
    if (index >= 0) guards.push({ state: name, rule: index, ...guardOf(state.Choices![index], counters)! });
  }
  const describe = () => component.join(' → ');
  if (guards.length === 0) throw new UnboundedLoopError(`unbounded loop ${describe()}: no counter guard leaves it`);
  // The edges a guard lets through only while the counter is below its bound: the rules after it and Default.
  const guarded = (from: string, to: string) =>
    guards.some((g) => {
      if (g.state !== from) return false;
      const state = machine.States[from];
      const later = (state.Choices ?? []).slice(g.rule + 1).map((r) => r.Next);
      const earlier = (state.Choices ?? []).slice(0, g.rule + 1).map((r) => r.Next);
      return (later.includes(to) || state.Default === to) && !earlier.includes(to);
    });
  const cycle = findCycle(component, (n) => edges.get(n)!.filter((m) => inside.has(m) && !guarded(n, m)));
  if (cycle) throw new UnboundedLoopError(`unbounded loop ${cycle.join(' → ')}: it bypasses every counter guard`);
  const counted = new Set(guards.flatMap((g) => incrementers.get(g.counter) ?? []));
  const uncounted = findCycle(
    component.filter((n) => !counted.has(n)),
    (n) => edges.get(n)!.filter((m) => inside.has(m) && !counted.has(m)),
  );
  if (uncounted) throw new UnboundedLoopError(`unbounded loop ${uncounted.join(' → ')}: no state on it counts`);
  // Nothing else on the loop may write the counter: a state whose result (or a Catch's) lands on it, or on a path
  // above it ($ by default), would start it over.
  for (const g of guards) {
    const parent = g.counter.slice(0, g.counter.lastIndexOf('.'));
    const covers = (path: string | null | undefined) =>
      path !== null && (path === undefined || path === '$' || parent === path || parent.startsWith(`${path}.`));
    for (const name of component) {
      const state = machine.States[name];
      if ((incrementers.get(g.counter) ?? []).includes(name)) continue;
      const writes = ['Task', 'Pass', 'Map', 'Parallel'].includes(state.Type) && covers(state.ResultPath);
      const catches = (state.Catch ?? []).some((c) => inside.has(c.Next) && covers(c.ResultPath ?? '$'));
      if (writes || catches)
        throw new UnboundedLoopError(`unbounded loop ${describe()}: ${name} overwrites the counter ${g.counter}`);
    }
  }
  const tightest = guards.reduce((a, b) => (b.bound < a.bound ? b : a));
  return { states: component, counter: tightest.counter, bound: tightest.bound, passEvents };
}
