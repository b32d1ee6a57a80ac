"use client";

import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import type { LiveInputMessage } from "@/components/session/live-input";
import {
  DrawTimer,
  drawableFps,
  FRAMES_TO_JUDGE,
  shouldAskLower,
  VIEWER_MAX_FPS,
  withFps,
} from "@/components/session/live-view-rate";

export type ConnectionState = "connecting" | "live" | "reconnecting" | "ended";

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/**
 * The /ws live view of one session (docs/contract.md "Streams"): JPEG frames drawn
 * on `canvas` at the frame's own size (CSS scales it), input sent as JSON, and
 * reconnects with exponential backoff until the server says the session ended.
 * `url` is the session's `endpoints.ws` (its token in the query: a browser
 * WebSocket cannot send headers); the latest one is used on each reconnect.
 * Watching costs the session's machine per frame (docs/live-view-cost.md): the
 * viewer asks for the fps it can draw (live-view-rate.ts) and closes the socket
 * while the browser tab is hidden, reconnecting when it is shown again.
 */
export function useLiveView({
  url,
  canvas,
  onEnded,
}: {
  url: string | undefined;
  canvas: RefObject<HTMLCanvasElement | null>;
  onEnded: (reason: string) => void;
}) {
  const [state, setState] = useState<ConnectionState>("connecting");
  const [endedReason, setEndedReason] = useState<string | null>(null);
  const [frameSize, setFrameSize] = useState<{ width: number; height: number } | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const urlRef = useRef(url);
  const onEndedRef = useRef(onEnded);
  useEffect(() => {
    urlRef.current = url;
    onEndedRef.current = onEnded;
  });
  const hasUrl = Boolean(url);

  useEffect(() => {
    if (!hasUrl) return;
    let disposed = false;
    let ended = false;
    let attempt = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    // Frames that arrive while one is decoding replace each other: only the newest is drawn.
    let pending: Blob | null = null;
    let decoding = false;
    let askedFps = VIEWER_MAX_FPS;
    let askingAgain = false;
    const drawTimer = new DrawTimer();

    async function draw() {
      if (decoding) return;
      decoding = true;
      while (pending && !disposed) {
        const blob = pending;
        pending = null;
        const started = performance.now();
        try {
          const bitmap = await createImageBitmap(blob);
          const target = canvas.current;
          if (target && !disposed) {
            if (target.width !== bitmap.width || target.height !== bitmap.height) {
              target.width = bitmap.width;
              target.height = bitmap.height;
              setFrameSize({ width: bitmap.width, height: bitmap.height });
            }
            target.getContext("2d")?.drawImage(bitmap, 0, 0);
          }
          bitmap.close();
          judgeRate(performance.now() - started);
        } catch {
          // A frame that does not decode is skipped; the next one replaces it.
        }
      }
      decoding = false;
    }

    /** After FRAMES_TO_JUDGE frames, asks again at the fps this viewer can draw if that is well below what it asked. */
    function judgeRate(drawMs: number) {
      drawTimer.add(drawMs);
      if (drawTimer.count !== FRAMES_TO_JUDGE) return;
      const drawable = drawableFps(drawTimer.averageMs);
      if (!shouldAskLower(askedFps, drawable)) return;
      askedFps = drawable;
      askingAgain = true;
      socket.current?.close(1000, "asking for a lower fps");
    }

    function connect() {
      const target = urlRef.current;
      if (!target || disposed || document.hidden) return;
      const ws = new WebSocket(withFps(target, askedFps));
      ws.binaryType = "blob";
      socket.current = ws;
      ws.onmessage = (event) => {
        if (typeof event.data !== "string") {
          attempt = 0;
          setState("live");
          pending = event.data as Blob;
          void draw();
          return;
        }
        let message: { type?: string; reason?: string };
        try {
          message = JSON.parse(event.data);
        } catch {
          return;
        }
        if (message.type === "ended") {
          ended = true;
          setEndedReason(message.reason ?? "ended");
          setState("ended");
          onEndedRef.current(message.reason ?? "ended");
        }
      };
      ws.onopen = () => setState("live");
      ws.onclose = () => {
        if (socket.current === ws) socket.current = null;
        if (disposed || ended || document.hidden) return;
        if (askingAgain) {
          askingAgain = false;
          connect();
          return;
        }
        setState("reconnecting");
        const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt++);
        retryTimer = setTimeout(connect, delay);
      };
    }

    // A hidden tab draws nothing: its socket closes (the capture stops if it was the only viewer) until shown again.
    function visibilityChanged() {
      if (document.hidden) {
        clearTimeout(retryTimer);
        socket.current?.close(1000, "viewer hidden");
        socket.current = null;
      } else if (!socket.current && !ended) {
        setState("connecting");
        connect();
      }
    }
    document.addEventListener("visibilitychange", visibilityChanged);

    setState("connecting");
    connect();
    return () => {
      disposed = true;
      document.removeEventListener("visibilitychange", visibilityChanged);
      clearTimeout(retryTimer);
      socket.current?.close(1000, "viewer closed");
      socket.current = null;
    };
  }, [hasUrl, canvas]);

  const send = useCallback((message: LiveInputMessage) => {
    const ws = socket.current;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }, []);

  return { state, endedReason, frameSize, send };
}
