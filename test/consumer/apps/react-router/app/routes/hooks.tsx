// The custom hooks UI of docs/core.md, copied from the docs by prepare.mjs (app/CustomAvatar.tsx).
import { useEffect } from 'react';
import { CustomAvatar } from '../CustomAvatar';

export default function Hooks() {
  // Marks the page hydrated for the test (the server-rendered Start button shows before its click handler exists).
  useEffect(() => {
    (window as unknown as { __hydrated?: boolean }).__hydrated = true;
  }, []);
  return (
    <main>
      <h1>Hooks page</h1>
      <CustomAvatar />
    </main>
  );
}
