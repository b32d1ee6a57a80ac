// Stand-ins for Settings → Models tests (API and e2e): an OpenAI-wire upstream on
// loopback that answers only one API key (a wrong key gets OpenAI's own 401
// error object, as the hosted service answers it), and dashboard users.
import { createServer, type IncomingMessage } from "node:http";
import { expect } from "vitest";
import { freePort } from "./harness";
import { signUp, type DashboardUser } from "./session-client";

export const UPSTREAM_KEY = "sk-upstream-test-9f3c2a71d4e8b605";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => resolve(raw));
  });
}

export interface KeyCheckingUpstream {
  /** Its OpenAI base URL, ending in /v1. */
  url: string;
  /** Every request's Authorization header and model, in order. */
  seen: { authorization?: string; model?: string }[];
  close(): Promise<void>;
}

/** Answers "ready from <model>" (streamed or not) to the right key only. */
export async function startKeyCheckingUpstream(key = UPSTREAM_KEY): Promise<KeyCheckingUpstream> {
  const seen: KeyCheckingUpstream["seen"] = [];
  const server = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || "{}") as { model?: string; stream?: boolean };
    seen.push({ authorization: req.headers.authorization, model: body.model });
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(401, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          error: {
            message: "Incorrect API key provided.",
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        }),
      );
    }
    const usage = { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 };
    const content = `ready from ${body.model}`;
    if (body.stream) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const frame = (v: unknown) => `data: ${JSON.stringify(v)}\n\n`;
      const chunk = (choices: unknown[], extra = {}) =>
        frame({ id: "c1", object: "chat.completion.chunk", choices, ...extra });
      return res.end(
        chunk([{ index: 0, delta: { role: "assistant", content }, finish_reason: null }]) +
          chunk([{ index: 0, delta: {}, finish_reason: "stop" }]) +
          chunk([], { usage }) +
          "data: [DONE]\n\n",
      );
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "c1",
        object: "chat.completion",
        created: 1,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage,
      }),
    );
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** A new organization's owner, with an API key of it. */
export async function ownerWithKey(name: string) {
  const user = await signUp(name);
  const created = await user.request("POST", "/api/keys", { name: `${name} key` });
  expect(created.status).toBe(201);
  return { user, key: created.body.key as string };
}

/** A member of `owner`'s organization, through an invitation accepted with Better Auth's own endpoints. */
export async function addMember(owner: DashboardUser, role: "member" | "admin") {
  const orgId = (await owner.request("GET", "/api/me")).body.organization.id as string;
  const invitee = await signUp("Invitee");
  const invite = await owner.request("POST", "/api/auth/organization/invite-member", {
    email: invitee.email,
    role,
    organizationId: orgId,
  });
  expect(invite.status).toBe(200);
  const accepted = await invitee.request("POST", "/api/auth/organization/accept-invitation", {
    invitationId: invite.body.id,
  });
  expect(accepted.status).toBe(200);
  await invitee.request("POST", "/api/auth/organization/set-active", { organizationId: orgId });
  expect((await invitee.request("GET", "/api/me")).body.role).toBe(role);
  return invitee;
}
