// What the custom server checks of connections and upgrade requests before any
// handler sees them (docs/limits.md "Connections and WebSockets"): how many
// sockets one client address may hold (AddressSlots), and whether an upgrade
// request is a well-formed WebSocket handshake (handshakeProblem), so every
// malformed one gets a JSON 4xx instead of the WebSocket library's bare text.
import type { IncomingMessage } from "node:http";
import { AppError } from "@/lib/api/errors";

/** Counts what each client address holds; `take` refuses past the limit. */
export class AddressSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly limit: number) {}

  take(address: string): boolean {
    const count = this.held.get(address) ?? 0;
    if (count >= this.limit) return false;
    this.held.set(address, count + 1);
    return true;
  }

  give(address: string): void {
    const count = (this.held.get(address) ?? 1) - 1;
    // Dropped at zero, so the map is only as large as the set of clients holding sockets now.
    if (count <= 0) this.held.delete(address);
    else this.held.set(address, count);
  }

  heldBy(address: string): number {
    return this.held.get(address) ?? 0;
  }
}

/** The refusal of a client address past its limit (429, closed after it). */
export function tooManyFromAddress(
  what: "connections" | "WebSocket upgrades",
  limit: number,
  setting: string,
): AppError {
  return new AppError(
    "rate_limited",
    `Too many open ${what} from your address (limit ${limit}, ${setting}); close some and retry`,
    {
      detail: "too_many_connections",
    },
  );
}

const WEBSOCKET_KEY = /^[A-Za-z0-9+/]{22}==$/;

/** Why an upgrade request is not a WebSocket handshake this server can accept (RFC 6455 §4.2.1), or null. */
export function handshakeProblem(req: IncomingMessage): AppError | null {
  const upgrade = String(req.headers.upgrade ?? "")
    .trim()
    .toLowerCase();
  if (upgrade !== "websocket") {
    return new AppError(
      "invalid_request",
      `Only WebSocket upgrades are served (Upgrade: websocket), not '${upgrade.slice(0, 40)}'`,
      { detail: "invalid_upgrade" },
    );
  }
  if (req.method !== "GET") {
    return new AppError("method_not_allowed", `A WebSocket handshake is a GET, not ${req.method}`, {
      headers: { allow: "GET" },
    });
  }
  const key = req.headers["sec-websocket-key"];
  if (typeof key !== "string" || !WEBSOCKET_KEY.test(key.trim())) {
    return new AppError("invalid_request", "Missing or invalid Sec-WebSocket-Key header (16 random bytes in base64)", {
      detail: "invalid_websocket_key",
    });
  }
  const version = String(req.headers["sec-websocket-version"] ?? "").trim();
  if (version !== "13") {
    return new AppError(
      "upgrade_required",
      `Unsupported Sec-WebSocket-Version '${version.slice(0, 16)}': this server speaks version 13`,
      {
        detail: "unsupported_websocket_version",
        headers: { "sec-websocket-version": "13" },
      },
    );
  }
  return null;
}
