import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";

const CONTROL =
  "block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 " +
  "focus:border-brand-500";
// A read-only input (e.g. an invitation's fixed email) looks settled, not editable.
const EDITABLE = `${CONTROL} bg-white`;
const READ_ONLY = `${CONTROL} bg-slate-50 text-slate-600`;

/** A label above a control, and an optional hint the control is described by. */
function LabelledField({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string, hintId?: string) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children(id, hintId)}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}

export function TextField({
  label,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  return (
    <LabelledField label={label} hint={hint}>
      {(id, hintId) => (
        <input id={id} className={props.readOnly ? READ_ONLY : EDITABLE} aria-describedby={hintId} {...props} />
      )}
    </LabelledField>
  );
}

export function SelectField({
  label,
  options,
  hint,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  /** A value shown as itself, or a value with its own label. */
  options: readonly (string | { value: string; label: string })[];
  hint?: string;
}) {
  return (
    <LabelledField label={label} hint={hint}>
      {(id, hintId) => (
        <select id={id} className={EDITABLE} aria-describedby={hintId} {...props}>
          {options.map((o) => {
            const { value, label: text } = typeof o === "string" ? { value: o, label: o } : o;
            return (
              <option key={value} value={value}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </LabelledField>
  );
}
