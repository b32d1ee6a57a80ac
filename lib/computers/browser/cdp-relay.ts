// One CDP client of one session, relayed to its own DevTools connection on the
// pool Chromium and filtered by `decide` (cdp-policy). Chromium scopes flat
// sessionIds to the connection that attached them, so a client can only ever
// use sessions this relay saw it attach to targets of its context; everything
// about other contexts (their targets, auto-attached sessions) is dropped, and
// auto-attached foreign pages that wait for a debugger are resumed and
// detached at once so other sessions never stall on this client.
//
// Message ids: every upstream message gets our own id, so the relay's internal
// lookups (Target.getTargetInfo before a command naming a target) never collide
// with the client's ids. Client commands are handled one at a time, in order.
import type { WebSocket, RawData } from "ws";
import {
  decide,
  inContext,
  type CdpCommand,
  type CdpView,
  type ResultFilter,
} from "@/lib/computers/browser/cdp-policy";

interface Pending {
  clientId?: number;
  sessionId?: string;
  filter?: ResultFilter;
  internal?: (message: UpstreamMessage) => void;
}

interface UpstreamMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  sessionId?: string;
}

export interface RelayHooks {
  /** Every client message (the caller throttles). */
  onActivity(): void;
  /** Both sockets are closed. */
  onClosed(): void;
}

/** A closed socket's close code for "the session or its browser ended". */
export const CLOSE_SESSION_ENDED = 4000;

export class CdpRelay implements CdpView {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly sessions = new Set<string>();
  /** Browser-target sessions (Target.attachToBrowserTarget): filtered like the connection itself. */
  private readonly browserSessions = new Set<string>();
  private readonly targets = new Set<string>();
  private readonly windows = new Set<number>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly client: WebSocket,
    private readonly upstream: WebSocket,
    readonly contextId: string,
    private readonly hooks: RelayHooks,
  ) {
    client.on("message", (data, isBinary) => {
      hooks.onActivity();
      if (isBinary) return this.close(1003, "CDP messages are JSON text");
      this.queue = this.queue.then(() => this.fromClient(data)).catch(() => this.close(1011, "relay error"));
    });
    upstream.on("message", (data) => this.fromUpstream(data));
    client.on("close", () => this.close(1000, "client closed"));
    upstream.on("close", () => this.close(CLOSE_SESSION_ENDED, "the session's browser closed the connection"));
    client.on("error", () => this.close(1011, "client socket error"));
    upstream.on("error", () => this.close(1011, "browser connection error"));
  }

  ownsSession(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  isBrowserSession(sessionId: string): boolean {
    return this.browserSessions.has(sessionId);
  }

  knowsWindow(windowId: number): boolean {
    return this.windows.has(windowId);
  }

  /** Ends both sides; `code`/`reason` are what the client sees. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.client.close(code, reason.slice(0, 120));
    } catch {
      this.client.terminate();
    }
    this.upstream.terminate();
    this.pending.clear();
    this.hooks.onClosed();
  }

  private async fromClient(data: RawData): Promise<void> {
    let command: CdpCommand;
    try {
      command = JSON.parse(data.toString()) as CdpCommand;
    } catch {
      return this.close(1007, "CDP messages are JSON");
    }
    if (typeof command.id !== "number" || typeof command.method !== "string") {
      return this.toClient({
        id: command.id ?? 0,
        error: { code: -32600, message: "A CDP command needs a numeric id and a method" },
      });
    }
    const decision = decide(command, this);
    const reply = (body: Record<string, unknown>) =>
      this.toClient({ id: command.id, ...body, ...(command.sessionId ? { sessionId: command.sessionId } : {}) });
    if (decision.do === "refuse") return reply({ error: { code: -32000, message: decision.message } });
    if (decision.do === "reply") {
      reply({ result: decision.result });
      if (decision.close) setTimeout(() => this.close(1000, decision.close!), 50).unref();
      return;
    }
    if (decision.requireTarget && !(await this.targetInContext(decision.requireTarget))) {
      return reply({ error: { code: -32602, message: "No target with given id found" } });
    }
    const id = this.nextId++;
    this.pending.set(id, { clientId: command.id, sessionId: command.sessionId, filter: decision.result });
    this.send({
      id,
      method: command.method,
      params: decision.params ?? command.params ?? {},
      ...(command.sessionId ? { sessionId: command.sessionId } : {}),
    });
  }

  /**
   * Known targets of the context answer at once; others are looked up (never cached as foreign: ids are not reused).
   */
  private async targetInContext(targetId: string): Promise<boolean> {
    if (this.targets.has(targetId)) return true;
    const answer = await this.internal("Target.getTargetInfo", { targetId });
    const ok = inContext(answer.result?.targetInfo, this.contextId);
    if (ok) this.targets.add(targetId);
    return ok;
  }

  private internal(method: string, params: Record<string, unknown>, sessionId?: string): Promise<UpstreamMessage> {
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, { internal: resolve });
      this.send({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    });
  }

  private fromUpstream(data: RawData): void {
    let message: UpstreamMessage;
    try {
      message = JSON.parse(data.toString()) as UpstreamMessage;
    } catch {
      return;
    }
    if (typeof message.id === "number") return this.answer(message);
    if (message.method) this.event(message);
  }

  private answer(message: UpstreamMessage): void {
    const pending = this.pending.get(message.id!);
    if (!pending) return;
    this.pending.delete(message.id!);
    if (pending.internal) return pending.internal(message);
    let result = message.result;
    if (result && pending.filter) result = this.filterResult(pending.filter, result);
    this.toClient({
      id: pending.clientId,
      ...(message.error ? { error: message.error } : { result }),
      ...(pending.sessionId ? { sessionId: pending.sessionId } : {}),
    });
  }

  private filterResult(filter: ResultFilter, result: Record<string, unknown>): Record<string, unknown> {
    switch (filter) {
      case "target_infos": {
        const infos = Array.isArray(result.targetInfos) ? result.targetInfos : [];
        const mine = infos.filter((info) => inContext(info, this.contextId));
        for (const info of mine) this.targets.add((info as { targetId: string }).targetId);
        return { ...result, targetInfos: mine };
      }
      case "attached_session":
        if (typeof result.sessionId === "string") this.sessions.add(result.sessionId);
        return result;
      case "browser_session":
        if (typeof result.sessionId === "string") this.browserSessions.add(result.sessionId);
        return result;
      case "window":
        if (typeof result.windowId === "number") this.windows.add(result.windowId);
        return result;
    }
  }

  private event(message: UpstreamMessage): void {
    const { method, params = {}, sessionId } = message;
    const browserLevel = sessionId === undefined || this.browserSessions.has(sessionId);
    if (!browserLevel && !this.sessions.has(sessionId!)) return;
    switch (method) {
      case "Target.attachedToTarget": {
        const child = String(params.sessionId);
        // Only the client's own Target.attachToBrowserTarget attaches the browser target (auto-attach never does).
        if ((params.targetInfo as { type?: string } | undefined)?.type === "browser") {
          this.browserSessions.add(child);
          break;
        }
        if (!inContext(params.targetInfo, this.contextId))
          return this.letGo(child, params.waitingForDebugger === true, sessionId);
        this.sessions.add(child);
        this.targets.add((params.targetInfo as { targetId: string }).targetId);
        break;
      }
      case "Target.detachedFromTarget":
        if (!this.sessions.delete(String(params.sessionId)) && !this.browserSessions.delete(String(params.sessionId)))
          return;
        break;
      case "Target.targetCreated":
      case "Target.targetInfoChanged":
        if (!inContext(params.targetInfo, this.contextId)) return;
        this.targets.add((params.targetInfo as { targetId: string }).targetId);
        break;
      case "Target.targetDestroyed":
      case "Target.targetCrashed":
        if (!this.targets.has(String(params.targetId))) return;
        if (method === "Target.targetDestroyed") this.targets.delete(String(params.targetId));
        break;
      default:
        // Browser-level events (downloads, …) concern every context; page sessions' events are the client's.
        if (browserLevel) return;
    }
    this.toClient(message);
  }

  /** A foreign target auto-attached on this connection: let it run and drop our session on it. */
  private letGo(child: string, waiting: boolean, parent: string | undefined): void {
    if (waiting) void this.internal("Runtime.runIfWaitingForDebugger", {}, child);
    void this.internal("Target.detachFromTarget", { sessionId: child }, parent);
  }

  private send(message: Record<string, unknown>): void {
    if (!this.closed) this.upstream.send(JSON.stringify(message));
  }

  private toClient(message: unknown): void {
    if (!this.closed) this.client.send(JSON.stringify(message));
  }
}
