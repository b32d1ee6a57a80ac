// @needs server light chromium
// The placeholder model in loops that feed its answers back, on the shared
// server (a fresh install's local model, no MODELS): without max_output_tokens
// an answer stops at the short default (lib/models/local/context-fit.ts), and a
// conversation that outgrows the context loses its oldest turns instead of
// failing with context_length_exceeded. Five rounds chained with
// previous_response_id, five through chat with the whole history, and the two
// public examples that stopped at round 2 (monitor.py: the previous answer in
// each prompt; multi_tab.py: one question per tab, then a comparison of the
// answers), all 200.
import { afterAll, describe, expect, inject, it } from "vitest";
import { api, createSession, type Target } from "./computers-fixtures";
import { startFormSite, type FormSite } from "./cua-loop-fixtures";

const MODEL = "tzafon.northstar-cua-fast";
const DEFAULT_MAX_TOKENS = 256;
const target: Required<Target> = { base: inject("baseUrl"), key: inject("apiKey") };
const sessions: string[] = [];
let site: FormSite | undefined;

afterAll(async () => {
  for (const id of sessions) await api("DELETE", `/computers/${id}`, undefined, target);
  await site?.close();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${target.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const textOf = (response: any): string =>
  (response.output ?? [])
    .filter((item: any) => item.type === "message")
    .flatMap((item: any) => item.content ?? [])
    .map((part: any) => part.text ?? "")
    .join("");

describe("the placeholder fed its own answers", { timeout: 300_000 }, () => {
  it("five rounds chained with previous_response_id: all 200, each answer within the default length", async () => {
    let previous: string | undefined;
    for (let round = 1; round <= 5; round++) {
      const res = await post("/v1/responses", {
        model: MODEL,
        input: `Round ${round}: describe the weather in a long paragraph.`,
        ...(previous ? { previous_response_id: previous } : {}),
      });
      expect([round, res.status], JSON.stringify(res.body.error)).toEqual([round, 200]);
      expect(res.body.usage.output_tokens).toBeLessThanOrEqual(DEFAULT_MAX_TOKENS);
      previous = res.body.id;
    }
  });

  it("five rounds through chat with the whole history resent: all 200", async () => {
    const messages: Array<{ role: string; content: string }> = [{ role: "system", content: "You are verbose." }];
    for (let round = 1; round <= 5; round++) {
      messages.push({ role: "user", content: `Round ${round}: tell me everything you know.` });
      const res = await post("/v1/chat/completions", { model: MODEL, messages });
      expect([round, res.status], JSON.stringify(res.body.error)).toEqual([round, 200]);
      expect(res.body.usage.completion_tokens).toBeLessThanOrEqual(DEFAULT_MAX_TOKENS);
      messages.push({ role: "assistant", content: res.body.choices[0].message.content ?? "" });
    }
  });

  it("a history longer than the context loses its oldest turns, not the request", async () => {
    const messages: Array<{ role: string; content: string }> = [{ role: "system", content: "Be brief." }];
    for (let turn = 0; turn < 40; turn++)
      messages.push({ role: turn % 2 ? "assistant" : "user", content: `turn ${turn} ${"water ".repeat(300)}` });
    messages.push({ role: "user", content: "And now?" });
    const res = await post("/v1/chat/completions", { model: MODEL, messages, max_tokens: 16 });
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    // The prompt run is what was kept: it fits the context (8,192 tokens) with the answer's room.
    expect(res.body.usage.prompt_tokens).toBeLessThanOrEqual(8192 - 16);
    expect(res.body.usage.prompt_tokens).toBeGreaterThan(1000);
  });

  it("monitor.py and multi_tab.py run to their end on a real page's screenshots", async () => {
    site = await startFormSite();
    const session = await createSession({}, target);
    sessions.push(session.id);
    const shot = async () =>
      (await api("POST", `/computers/${session.id}/screenshot`, {}, target)).body.result.screenshot_url;
    const ask = (prompt: string, url: string, tools?: unknown[]) =>
      post("/v1/responses", {
        model: MODEL,
        ...(tools ? { tools } : {}),
        input: [
          {
            role: "user",
            content: [
              { type: "input_text", text: prompt },
              { type: "input_image", image_url: url, detail: "auto" },
            ],
          },
        ],
      });
    await api(
      "POST",
      `/computers/${session.id}/execute`,
      { action: { type: "go_to_url", url: `${site.url}/` } },
      target,
    );

    // monitor.py: each check's prompt carries the previous description.
    let previous = "";
    for (let check = 1; check <= 5; check++) {
      let prompt = "Describe what you see on this screen. Be concise — one paragraph.";
      if (previous) prompt += `\n\nPrevious observation: ${previous}\n\nFlag anything that changed.`;
      const res = await ask(prompt, await shot());
      expect([check, res.status], JSON.stringify(res.body.error)).toEqual([check, 200]);
      previous = textOf(res.body);
    }

    // multi_tab.py: one tab per page, a question on each, then a comparison of the answers.
    const tool = { type: "computer_use", display_width: 1280, display_height: 720, environment: "browser" };
    const results: string[] = [];
    for (const [i, page] of ["a", "b", "c"].entries()) {
      if (i > 0) await api("POST", `/computers/${session.id}/tabs`, { url: `${site.url}/?product=${page}` }, target);
      const res = await ask("Look at this page and tell me the product name and price.", await shot(), [tool]);
      expect([page, res.status], JSON.stringify(res.body.error)).toEqual([page, 200]);
      results.push(textOf(res.body) || "(no response)");
    }
    const summary = `Here are the results:\n${results.map((r) => `- ${r}`).join("\n")}\n\nWhich is the cheapest?`;
    const verdict = await ask(summary, await shot(), [tool]);
    expect(verdict.status, JSON.stringify(verdict.body.error)).toBe(200);
  });
});
