// A drag handle between docked panels; arrow keys move it too.
import type { KeyboardEvent, PointerEvent } from "react";

interface Props {
  readonly label: string;
  readonly orientation: "vertical" | "horizontal";
  readonly value: number;
  /** +1 when dragging right/down grows the panel, -1 when it shrinks it. */
  readonly sign: 1 | -1;
  readonly min: number;
  readonly max: number;
  readonly onChange: (value: number) => void;
}

export function Splitter({ label, orientation, value, sign, min, max, onChange }: Props) {
  const clamp = (v: number): number => Math.max(min, Math.min(max, v));
  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    e.preventDefault();
    const start = orientation === "vertical" ? e.clientX : e.clientY;
    const from = value;
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent): void => {
      const pos = orientation === "vertical" ? ev.clientX : ev.clientY;
      onChange(clamp(from + sign * (pos - start)));
    };
    const up = (): void => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const grow = orientation === "vertical" ? ["ArrowRight", "ArrowLeft"] : ["ArrowDown", "ArrowUp"];
    const i = grow.indexOf(e.key);
    if (i < 0) return;
    e.preventDefault();
    onChange(clamp(value + (i === 0 ? 1 : -1) * sign * 16));
  };
  return (
    <div
      className={`splitter ${orientation}`}
      role="separator"
      aria-label={label}
      aria-orientation={orientation}
      aria-valuenow={Math.round(value)}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
