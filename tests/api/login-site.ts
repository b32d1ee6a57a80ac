// A loopback login form for the credential vault's tests (credentials.test.ts, and a
// desktop's Chromium in desktop-browse.test.ts): user name, password and one-time code
// fields like a real site's, and a record of what each submission carried.
import { createServer } from "node:http";
import { listenOnLoopback, type LoopbackServer } from "./loopback";

/** A login form like a framework's: it counts input events per field and posts what was submitted to /submitted. */
const LOGIN_PAGE =
  `<!doctype html><html><head><title>Sign in</title></head><body>
<form id="login"><label>E-mail <input name="email" type="email" autocomplete="username"></label>
<label>Password <input name="pass" type="password" autocomplete="current-password"></label>
<label>Code <input name="code" autocomplete="one-time-code" inputmode="numeric" maxlength="6"></label>
<input type="hidden" name="csrf" value="t0k3n"><button type="submit">Sign in</button></form>
<script>
const events = {};
for (const el of document.querySelectorAll('input')) el.addEventListener('input', () => (events[el.name] = ` +
  `(events[el.name] || 0) + 1));
document.getElementById('login').addEventListener('submit', (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  fetch('/submitted', {method: 'POST', body: JSON.stringify({user: f.get('email'), password: f.get('pass'), ` +
  `code: f.get('code'), events})})
    .then(() => (document.title = 'Submitted'));
});
</script></body></html>`;

export interface LoginSite extends LoopbackServer {
  submissions: Array<{ user: string; password: string; code: string; events: Record<string, number>; at: number }>;
}

export async function startLoginSite(): Promise<LoginSite> {
  const submissions: LoginSite["submissions"] = [];
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/submitted") {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        submissions.push({ ...JSON.parse(body), at: Date.now() / 1000 });
        res.end("ok");
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(LOGIN_PAGE);
  });
  return Object.assign(await listenOnLoopback(server), { submissions });
}
