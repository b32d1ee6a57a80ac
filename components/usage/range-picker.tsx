"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ToggleGroup } from "@/components/ui/toggle-group";

type Preset = "24h" | "7d" | "30d" | "month" | "custom";

const PRESETS: { value: Preset; label: string }[] = [
  { value: "24h", label: "24 h" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "month", label: "This month" },
  { value: "custom", label: "Custom" },
];

const INPUT =
  "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-brand-500 " +
  "focus:outline-none focus:ring-2 focus:ring-brand-500/40";

/** The range query of the page's URL (what /api/usage and the CSV link take), defaulting to 30 days. */
export function useRangeQuery(): { query: string; preset: Preset; from: string; to: string } {
  const params = useSearchParams();
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  const range = params.get("range");
  const preset: Preset = PRESETS.some((p) => p.value === range) ? (range as Preset) : from ? "custom" : "30d";
  const query = new URLSearchParams();
  if (preset === "custom") {
    if (from) query.set("from", from);
    if (to) query.set("to", to);
  } else query.set("range", preset);
  return { query: query.toString(), preset, from, to };
}

/** Presets and a custom from/to (UTC days), kept in the URL so the view can be shared. */
export function RangePicker() {
  const router = useRouter();
  const pathname = usePathname();
  const current = useRangeQuery();
  const [custom, setCustom] = useState(current.preset === "custom");
  const today = new Date().toISOString().slice(0, 10);
  const [from, setFrom] = useState(current.from || today);
  const [to, setTo] = useState(current.to || today);

  const go = (query: URLSearchParams) => router.replace(`${pathname}?${query}`, { scroll: false });

  function choose(preset: Preset) {
    if (preset === "custom") return setCustom(true);
    setCustom(false);
    go(new URLSearchParams({ range: preset }));
  }

  function apply(e: FormEvent) {
    e.preventDefault();
    go(new URLSearchParams({ from, to }));
  }

  return (
    <div className="flex flex-wrap items-end gap-3" data-testid="usage-range">
      <ToggleGroup label="Date range" options={PRESETS} value={custom ? "custom" : current.preset} onChange={choose} />
      {custom && (
        <form onSubmit={apply} className="flex flex-wrap items-end gap-2">
          <label className="text-xs text-slate-600">
            From (UTC)
            <input
              type="date"
              required
              value={from}
              max={to}
              onChange={(e) => setFrom(e.target.value)}
              className={`mt-1 block ${INPUT}`}
            />
          </label>
          <label className="text-xs text-slate-600">
            To (UTC, inclusive)
            <input
              type="date"
              required
              value={to}
              min={from}
              onChange={(e) => setTo(e.target.value)}
              className={`mt-1 block ${INPUT}`}
            />
          </label>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </form>
      )}
    </div>
  );
}
