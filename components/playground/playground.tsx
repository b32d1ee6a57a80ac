"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { CodeCall } from "@/components/playground/code-snippets";
import {
  ChatFailed,
  ChatMessages,
  ChatWaiting,
  EmptyChat,
  plainError,
  textOf,
  type PlaygroundMessage,
} from "@/components/playground/chat-messages";
import { ChatScroller } from "@/components/playground/chat-scroller";
import { Composer } from "@/components/playground/composer";
import { FrameBatchedChat } from "@/components/playground/frame-batched-chat";
import { PRESETS } from "@/components/playground/presets";
import { SettingsPanel, type PlaygroundSettings } from "@/components/playground/settings-panel";
import { ViewCode } from "@/components/playground/view-code";
import type { PlaygroundModel } from "@/lib/models/playground";

const BALANCED = PRESETS.find((p) => p.value === "balanced")!;

/** The chat, its settings and "View code"; answers stream from /api/playground/chat through useChat. */
export function Playground({ models, origin }: { models: PlaygroundModel[]; origin: string }) {
  const [settings, setSettings] = useState<PlaygroundSettings>({
    model: models[0]?.id ?? "",
    system: "",
    temperature: BALANCED.temperature,
    maxTokens: BALANCED.maxTokens,
  });
  const [draft, setDraft] = useState("");
  const [showCode, setShowCode] = useState(false);
  const [session] = useState(
    () =>
      new FrameBatchedChat<PlaygroundMessage>({
        transport: new DefaultChatTransport<PlaygroundMessage>({ api: "/api/playground/chat" }),
      }),
  );
  const chat = useChat<PlaygroundMessage>({ chat: session });
  const codeCard = useRef<HTMLDivElement>(null);
  // "View code" opens below the chat: bring it into view (at 1280 it opened off-screen).
  useEffect(() => {
    if (showCode) codeCard.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [showCode]);
  const busy = chat.status === "submitted" || chat.status === "streaming";
  const last = chat.messages.at(-1);
  const streamingId = chat.status === "streaming" && last?.role === "assistant" ? last.id : undefined;

  // The settings travel with every request, so a change applies to the next message.
  const requestBody = () => ({
    body: {
      model: settings.model,
      system: settings.system,
      temperature: settings.temperature,
      max_tokens: settings.maxTokens,
    },
  });
  const send = (text: string) => {
    setDraft("");
    void chat.sendMessage({ text }, requestBody());
  };
  const retry = () => {
    chat.clearError();
    void chat.regenerate(requestBody());
  };
  const clear = () => {
    if (busy) void chat.stop();
    chat.setMessages([]);
    chat.clearError();
  };

  // The code is written out only while shown: the chat renders every frame while an answer streams.
  const codeCall = (): CodeCall => {
    const conversation = chat.messages.map((m) => ({ role: m.role, content: textOf(m) })).filter((m) => m.content);
    return {
      origin,
      model: settings.model,
      messages: [
        ...(settings.system.trim() ? [{ role: "system" as const, content: settings.system }] : []),
        ...conversation,
        ...(draft.trim() || conversation.length === 0
          ? [{ role: "user" as const, content: draft.trim() || "Hello!" }]
          : []),
      ],
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
    };
  };

  if (models.length === 0) {
    return <Card title="Chat">No model is configured on this server: set MODELS (see the README) and restart it.</Card>;
  }
  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
      {/* On a phone the chat comes first (its composer within the first screen), the settings below it. */}
      <Card title="Settings" className="order-last lg:order-none">
        <SettingsPanel models={models} value={settings} onChange={setSettings} />
      </Card>
      <div className="min-w-0 space-y-6">
        <Card
          title="Chat"
          actions={
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => setShowCode((v) => !v)} aria-expanded={showCode}>
                {showCode ? "Hide code" : "View code"}
              </Button>
              <Button variant="ghost" onClick={clear} disabled={chat.messages.length === 0 && !chat.error}>
                Clear
              </Button>
            </div>
          }
        >
          <div className="space-y-4" data-testid="playground-chat" data-status={chat.status}>
            <ChatScroller follow={last ? `${last.id}:${textOf(last).length}:${chat.status}` : chat.status}>
              <div className="space-y-4">
                {chat.messages.length === 0 && !chat.error ? (
                  <EmptyChat onPick={send} />
                ) : (
                  <ChatMessages
                    messages={chat.messages}
                    streamingId={streamingId}
                    failedId={chat.error && last?.role === "assistant" ? last.id : undefined}
                  />
                )}
                {chat.status === "submitted" && <ChatWaiting />}
                {chat.error && <ChatFailed message={plainError(chat.error)} onRetry={retry} />}
              </div>
            </ChatScroller>
            <Composer
              value={draft}
              onChange={setDraft}
              onSend={() => send(draft.trim())}
              onStop={() => void chat.stop()}
              busy={busy}
            />
          </div>
        </Card>
        {showCode && (
          <div ref={codeCard} className="scroll-mb-4">
            <Card title="The same call with an API key">
              <ViewCode call={codeCall()} />
            </Card>
          </div>
        )}
      </div>
    </div>
  );
}
