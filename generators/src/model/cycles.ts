/**
 * Nodes that sit on a reference cycle (a strongly connected component with more than one node, or a
 * node that refers to itself): Tarjan's algorithm, iterative because generated specs nest
 * references thousands deep. Edges to nodes outside the map are ignored.
 */
export function cyclicNodes(edges: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result = new Set<string>();
  let counter = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; it: Iterator<string> }[] = [];
    const open = (n: string): void => {
      index.set(n, counter);
      low.set(n, counter++);
      stack.push(n);
      onStack.add(n);
      work.push({ node: n, it: (edges.get(n) ?? new Set<string>()).values() });
    };
    open(start);
    while (work.length > 0) {
      const top = work[work.length - 1] as { node: string; it: Iterator<string> };
      const next = top.it.next();
      if (!next.done) {
        const m = next.value;
        if (!edges.has(m)) continue;
        if (!index.has(m)) open(m);
        else if (onStack.has(m)) low.set(top.node, Math.min(low.get(top.node) as number, index.get(m) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(top.node) as number));
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let m: string;
        do {
          m = stack.pop() as string;
          onStack.delete(m);
          component.push(m);
        } while (m !== top.node);
        if (component.length > 1 || edges.get(top.node)?.has(top.node)) component.forEach((c) => result.add(c));
      }
    }
  }
  return result;
}
