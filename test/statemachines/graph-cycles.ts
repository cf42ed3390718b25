// Test support: cycles and strongly connected components of a state graph (history-bound.ts).

/** A cycle among `nodes` following `next`, as the nodes on it with the first repeated at the end. */
export function findCycle(nodes: readonly string[], next: (n: string) => readonly string[]): string[] | undefined {
  const allowed = new Set(nodes);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of next(n)) {
      if (!allowed.has(m)) continue;
      if (state.get(m) === 'open') return [...stack.slice(stack.indexOf(m)), m];
      if (state.get(m) === undefined) {
        const found = visit(m);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const n of nodes)
    if (state.get(n) === undefined) {
      const found = visit(n);
      if (found) return found;
    }
  return undefined;
}

/** Tarjan's strongly connected components. */
export function stronglyConnected(names: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  const connect = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      out.push(component.reverse());
    }
  };
  for (const n of names) if (!indices.has(n)) connect(n);
  return out;
}
