// Node 20 lacks Map.groupBy / Object.groupBy (Node ≥ 21), which vitest 5's reporter uses when it prints
// failures. Loaded by vitest.config.ts and by scripts that run vitest.
if (typeof Map.groupBy !== 'function') {
  Map.groupBy = (items, key) => {
    const map = new Map();
    let i = 0;
    for (const item of items) {
      const k = key(item, i++);
      if (!map.has(k)) map.set(k, []);
      map.get(k).push(item);
    }
    return map;
  };
}
if (typeof Object.groupBy !== 'function') {
  Object.groupBy = (items, key) => Object.fromEntries(Map.groupBy(items, key));
}
