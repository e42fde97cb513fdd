import { useEffect, useState } from 'react';

/**
 * A module the components load with `import()` the first time they need it: `load()` starts the download once (call
 * it to prefetch), `useModule(wanted)` returns the module once it is there and asks for it while `wanted`. Unlike
 * `React.lazy`, a module already loaded renders in the same pass (no fallback frame), and a failed download renders
 * nothing and is tried again the next time it is wanted, instead of throwing into the page.
 */
export function onDemand<M>(importer: () => Promise<M>): { load: () => Promise<M>; useModule: (wanted: boolean) => M | null } {
  let loaded: M | null = null;
  let pending: Promise<M> | null = null;
  const load = () =>
    (pending ??= importer().then(
      (m) => (loaded = m),
      (e: unknown) => {
        pending = null;
        throw e;
      },
    ));
  const useModule = (wanted: boolean): M | null => {
    const [, setModule] = useState(loaded);
    useEffect(() => {
      if (loaded || !wanted) return;
      let live = true;
      load().then(
        (m) => live && setModule(m),
        () => undefined,
      );
      return () => {
        live = false;
      };
    }, [wanted]);
    return loaded;
  };
  return { load, useModule };
}
