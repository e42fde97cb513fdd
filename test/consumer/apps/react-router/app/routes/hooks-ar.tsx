// The Arabic hooks UI of docs/core.md ("Translated hooks UI"), copied from the docs by prepare.mjs (app/ArabicAvatar.tsx).
import { useEffect } from 'react';
import { ArabicAvatar } from '../ArabicAvatar';

/** The agent's picture before a call: the app's own (a plain SVG here). */
const PICTURE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560"><rect width="368" height="560" fill="#0b6e4f"/></svg>')}`;

export default function HooksArabic() {
  // Marks the page hydrated for the test (the server-rendered Start button shows before its click handler exists).
  useEffect(() => {
    (window as unknown as { __hydrated?: boolean }).__hydrated = true;
  }, []);
  return (
    <main>
      <ArabicAvatar picture={PICTURE} />
    </main>
  );
}
