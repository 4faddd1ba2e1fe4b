// An element's content size, kept current by a ResizeObserver: the graph fits itself to its own
// box, whatever changed it (a splitter, a maximised dock, the window).
import { useEffect, useState } from "react";

export interface Size {
  readonly width: number;
  readonly height: number;
}

const Unmeasured: Size = { width: 0, height: 0 };

/** The size of `element` (give it through a state-setting ref); 0 × 0 until it is mounted. */
export function useElementSize(element: HTMLElement | null): Size {
  const [size, setSize] = useState<Size>(Unmeasured);
  useEffect(() => {
    if (element === null) return;
    const measure = (): void => {
      const width = element.clientWidth;
      const height = element.clientHeight;
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return size;
}
