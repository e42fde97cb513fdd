import { useCallback, useEffect, useRef, useState } from 'react';

/** Distance from the bottom, px, under which the list counts as "at the bottom". */
const SLACK_PX = 24;

/**
 * Auto-scroll for a growing list that respects the user: it follows new content only while the
 * user is at the bottom; after they scroll up it stops and reports `unseen` until they come back
 * or call `jump()`. `key` changes whenever content is appended (e.g. the last line's id).
 */
export function useStickToBottom<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  const stuck = useRef(true);
  const [unseen, setUnseen] = useState(false);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight <= SLACK_PX;
    if (stuck.current) setUnseen(false);
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el || key === undefined) return;
    if (stuck.current) el.scrollTop = el.scrollHeight;
    else setUnseen(true);
  }, [key]);

  const jump = useCallback(() => {
    const el = ref.current;
    stuck.current = true;
    setUnseen(false);
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  return { ref, onScroll, unseen, jump };
}
