export const formatTokens = (n: number) => n.toLocaleString("en-US");

/** Small amounts keep their significant digits: $0.000042, not $0.00. */
export function formatUsd(n: number): string {
  if (n === 0) return "$0";
  if (n >= 1) return `$${n.toFixed(2)}`;
  return `$${n.toPrecision(2).replace(/0+$/, "").replace(/\.$/, "")}`;
}

export const formatDay = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
