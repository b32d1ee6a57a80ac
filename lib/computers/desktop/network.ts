// A desktop's network: its own namespace (made by `launchSandbox` as real root, so
// root inside the desktop's user namespace cannot change its firewall), a firewall
// in it made from the session egress policy (`EgressPolicy.rules`), then outbound NAT
// by slirp4netns — a user-space TCP/IP stack on the host that connects out as an
// ordinary host socket. Nothing is forwarded inward: what a desktop binds is reachable
// only inside it, and it can bind no port of the host.
// slirp4netns's addresses seen from the desktop: 10.0.2.2 is the host's 127.0.0.1
// (turned off with --disable-host-loopback unless the policy allows some of it),
// 10.0.2.3 its DNS forwarder (the desktop's resolv.conf), 10.0.2.100 the desktop.
// slirp4netns was measured here to be ready in 64–76 ms with ~1.2 MB PSS; pasta
// (passt 2023-03) could not open a namespace owned by root once it dropped to nobody.
import { spawn, type ChildProcess } from "node:child_process";
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { hostEnv } from "@/lib/computers/desktop/enter";
import type { EgressRule } from "@/lib/computers/egress/policy";
import { egressPolicy } from "@/lib/computers/egress/settings";

export const HOST_LOOPBACK = "10.0.2.2";
export const DNS_FORWARDER = "10.0.2.3";
export const RESOLV_CONF = `nameserver ${DNS_FORWARDER}\n`;
const TABLE = "cabin_egress";

export interface DesktopFirewall {
  /** An nft script that replaces the namespace's ruleset. */
  ruleset: string;
  /** Whether some rule lets the desktop reach the host's loopback (else slirp4netns turns it off too). */
  hostLoopback: boolean;
}

function contains(network: string, prefix: number, ip: string): boolean {
  const list = new BlockList();
  list.addSubnet(network, prefix, "ipv4");
  return list.check(ip, "ipv4");
}

/** The IPv4 ranges, as the desktop sees them, that a rule's target stands for. */
function desktopRanges(target: EgressRule["target"], resolved: Map<string, string[]>): string[] {
  const cidrs =
    target.kind === "cidr"
      ? [{ network: target.network, prefix: target.prefix, family: target.family }]
      : (resolved.get(target.host) ?? []).map((ip) => ({
          network: ip,
          prefix: isIP(ip) === 6 ? 128 : 32,
          family: isIP(ip) === 6 ? "ipv6" : "ipv4",
        }));
  return cidrs.flatMap(({ network, prefix, family }) => {
    if (family !== "ipv4") return []; // no IPv6 route: every IPv6 destination is refused below
    const out: string[] = [];
    // slirp4netns maps 10.0.2.2 to the host's 127.0.0.1 only.
    if (contains(network, prefix, "127.0.0.1")) out.push(`${HOST_LOOPBACK}/32`);
    // Inside 127.0.0.0/8 is the desktop's own loopback, always allowed.
    if (!(prefix >= 8 && contains("127.0.0.0", 8, network))) out.push(`${network}/${prefix}`);
    return out;
  });
}

/** The firewall of a desktop's namespace: the policy's rules in order, first match decides. */
export function desktopFirewall(rules: EgressRule[], resolved: Map<string, string[]>): DesktopFirewall {
  const lines: string[] = [];
  const seen = new Set<string>(); // a later rule with the same match can never apply
  let hostLoopback = false;
  for (const rule of rules) {
    const port = rule.port === null ? "" : ` meta l4proto { tcp, udp } th dport ${rule.port}`;
    const verdict = rule.verdict === "allow" ? "accept" : "reject with icmpx admin-prohibited";
    for (const range of desktopRanges(rule.target, resolved)) {
      if (seen.has(range + port)) continue;
      seen.add(range + port);
      if (range === `${HOST_LOOPBACK}/32` && rule.verdict === "allow") hostLoopback = true;
      lines.push(`    ip daddr ${range}${port} ${verdict} comment "${rule.why.replace(/"/g, "'").slice(0, 100)}"`);
    }
  }
  const ruleset = [
    `table inet ${TABLE} {`,
    "  chain output {",
    "    type filter hook output priority 0; policy accept;",
    '    oifname "lo" accept',
    `    ip daddr ${DNS_FORWARDER} meta l4proto { tcp, udp } th dport 53 accept`,
    "    meta nfproto ipv6 reject with icmpx admin-prohibited",
    ...lines,
    "  }",
    "}",
    "",
  ].join("\n");
  return { ruleset, hostLoopback };
}

/** The addresses each name in the rules has now (a name that does not resolve allows nothing). */
async function resolveNames(rules: EgressRule[]): Promise<Map<string, string[]>> {
  const names = [...new Set(rules.flatMap((r) => (r.target.kind === "host" ? [r.target.host] : [])))];
  const entries = await Promise.all(
    names.map(async (name) => {
      const found = await lookup(name, { all: true }).catch(() => []);
      return [name, found.map((a) => a.address)] as const;
    }),
  );
  return new Map(entries);
}

function run(command: string, args: string[], input: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "ignore", "pipe"], timeout: timeoutMs });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code ?? signal}): ${stderr.trim().slice(-300)}`)),
    );
    child.stdin!.end(input);
  });
}

export interface DesktopNetwork {
  slirp: ChildProcess;
  exited: Promise<void>;
}

/**
 * Puts the firewall into the network namespace of host pid `pid`, then starts
 * slirp4netns for it and resolves once its interface is configured. slirp4netns
 * carries the desktop's marker (reaped with the desktop's leftovers) and dies with
 * this server (pdeathsig).
 */
export async function startDesktopNetwork(pid: number, sessionDir: string, timeoutMs: number): Promise<DesktopNetwork> {
  const rules = egressPolicy().rules();
  const firewall = desktopFirewall(rules, await resolveNames(rules));
  await run("nsenter", [`--net=/proc/${pid}/ns/net`, "--", "nft", "-f", "-"], firewall.ruleset, timeoutMs);
  const slirp = spawn(
    "setpriv",
    [
      "--pdeathsig",
      "KILL",
      "--",
      "slirp4netns",
      "--configure",
      "--mtu=65520",
      "--ready-fd=3",
      "--enable-sandbox",
      "--enable-seccomp",
      // By path: given a pid, slirp4netns would join the desktop's user namespace first,
      // which has no rights over this (host-owned) network namespace.
      ...(firewall.hostLoopback ? [] : ["--disable-host-loopback"]),
      "--netns-type=path",
      `/proc/${pid}/ns/net`,
      "tap0",
    ],
    { stdio: ["ignore", "ignore", "pipe", "pipe"], env: hostEnv(sessionDir) },
  );
  const exited = new Promise<void>((r) => slirp.once("exit", () => r()));
  let output = "";
  slirp.stderr!.on("data", (d) => (output = (output + d).slice(-2000)));
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (slirp.exitCode === null) slirp.kill("SIGKILL");
      reject(new Error(`${message}${output.trim() ? `: ${output.trim().slice(-300)}` : ""}`));
    };
    const timer = setTimeout(
      () => fail(`the desktop's network (slirp4netns) was not ready within ${timeoutMs} ms`),
      timeoutMs,
    );
    (slirp.stdio[3] as NodeJS.ReadableStream).once("data", () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve();
    });
    slirp.once("error", (e) => fail(`could not start slirp4netns (${e.message})`));
    exited.then(() => fail(`slirp4netns exited during set-up (exit ${slirp.exitCode})`));
  });
  return { slirp, exited };
}
