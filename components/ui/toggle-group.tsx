"use client";

/** One choice among a few, as pressed/unpressed buttons (aria-pressed), e.g. a filter or a chart metric. */
export function ToggleGroup<T extends string>(props: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  /** "tabs": light, for filters; "segmented": a bordered control, for a chart's metric. */
  look?: "tabs" | "segmented";
}) {
  const segmented = props.look === "segmented";
  const on = segmented ? "bg-brand-600 text-white" : "bg-brand-50 font-medium text-brand-700";
  const off = segmented ? "text-slate-700 hover:bg-slate-100" : "text-slate-600 hover:bg-slate-100";
  return (
    <div
      role="group"
      aria-label={props.label}
      className={segmented ? "inline-flex rounded-md border border-slate-300 p-0.5" : "flex flex-wrap gap-1"}
    >
      {props.options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={props.value === o.value}
          onClick={() => props.onChange(o.value)}
          className={[
            segmented ? "rounded px-3 py-1 text-xs font-medium" : "rounded-md px-3 py-1.5 text-sm",
            props.value === o.value ? on : off,
          ].join(" ")}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
