import { useCallback, useState } from 'react';

/** Which sides of a horizontal scroller hide content: '' | 'start' | 'end' | 'start end'. */
export type ScrollEdges = '' | 'start' | 'end' | 'start end';

function edgesOf(element: HTMLElement): ScrollEdges {
  // scrollLeft is negative in right-to-left layouts; a pixel of rounding is not "more"
  const scrolled = Math.abs(element.scrollLeft);
  const start = scrolled > 1;
  const end = element.scrollWidth - element.clientWidth - scrolled > 1;
  return start && end ? 'start end' : start ? 'start' : end ? 'end' : '';
}

/**
 * Follows a horizontal scroller (on scroll, resize and a change of its content) and says on which sides more
 * content hides, so the CSS can fade those edges. Returns a callback ref for the scroller.
 */
export function useScrollEdges(): [ScrollEdges, (element: HTMLElement | null) => (() => void) | undefined] {
  const [edges, setEdges] = useState<ScrollEdges>('');
  const ref = useCallback((element: HTMLElement | null) => {
    if (!element) return undefined;
    const update = () => setEdges(edgesOf(element));
    update();
    element.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    resize?.observe(element);
    // other days (another time zone) change the content's width, not the scroller's
    const content = typeof MutationObserver === 'undefined' ? undefined : new MutationObserver(update);
    content?.observe(element, { childList: true, subtree: true, characterData: true });
    return () => {
      element.removeEventListener('scroll', update);
      resize?.disconnect();
      content?.disconnect();
    };
  }, []);
  return [edges, ref];
}
