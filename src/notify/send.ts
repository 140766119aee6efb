/**
 * Sending one message to channels: all at once, each with its own deadline (an AbortSignal on the
 * request, a kill for a command, and a timer that answers for it whatever it does), so a failing or
 * hanging channel costs the caller at most the timeout and never an exception. Each answer is a
 * delivery: delivered ("HTTP 200", "exit 0") or why not, redacted.
 */
import { spawn } from "node:child_process";
import { redact, redactor } from "../core/redact.js";
import type { Channel } from "./channels.js";
import type { Delivery } from "./deliveries.js";
import type { NotifyMessage } from "./message.js";
import { httpRequestOf, messageJson } from "./wire.js";

type Answer = { ok: boolean; detail: string };

const SNIPPET = 200;
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

async function postHttp(
  ch: Channel,
  url: string,
  m: NotifyMessage,
  extra: { headers: Record<string, string>; token: string | null },
  signal: AbortSignal,
): Promise<Answer> {
  if (ch.kind === "command") return { ok: false, detail: "not an HTTP channel" };
  const req = httpRequestOf(ch.kind, m, extra);
  const res = await fetch(url, { method: "POST", headers: req.headers, body: req.body, signal, redirect: "error" });
  const body = (await res.text()).slice(0, SNIPPET).replace(/\s+/g, " ").trim();
  return res.ok ? { ok: true, detail: `HTTP ${res.status}` } : { ok: false, detail: `HTTP ${res.status}${body ? `: ${body}` : ""}` };
}

/** The environment a command runs in: this process's, less every variable holding a secret the redactor knows. */
function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && redactor.find(v).length === 0));
}

function runCommand(argv: string[], m: NotifyMessage, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve) => {
    const [program, ...args] = argv;
    if (!program) return resolve({ ok: false, detail: "no program" });
    let stderr = "";
    const child = spawn(program, args, { stdio: ["pipe", "ignore", "pipe"], env: commandEnv(env) });
    const stop = () => {
      child.kill("SIGKILL");
      child.stderr?.destroy();
      child.unref();
    };
    signal.addEventListener("abort", stop, { once: true });
    child.stderr?.on("data", (d: Buffer) => {
      if (stderr.length < SNIPPET) stderr += d.toString("utf8");
    });
    child.on("error", (e) => resolve({ ok: false, detail: `could not start ${program}: ${e.message}` }));
    child.on("exit", (code, sig) => {
      signal.removeEventListener("abort", stop);
      const said = stderr.slice(0, SNIPPET).replace(/\s+/g, " ").trim();
      resolve(code === 0 ? { ok: true, detail: "exit 0" } : { ok: false, detail: `${sig ? `killed by ${sig}` : `exit ${code}`}${said ? `: ${said}` : ""}` });
    });
    child.stdin?.on("error", () => {}); // a program that does not read its stdin is not a failure by itself
    child.stdin?.end(`${messageJson(m)}\n`);
  });
}

function attempt(ch: Channel, m: NotifyMessage, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<Answer> {
  const t = ch.target;
  if (t.type === "unusable") return Promise.resolve({ ok: false, detail: t.problem });
  if (t.type === "command") return runCommand(t.argv, m, env, signal);
  return postHttp(ch, t.url, m, { headers: t.headers, token: t.token }, signal);
}

/** One channel, bounded by `timeoutMs` whatever the receiver does; never throws. */
async function sendOne(ch: Channel, m: NotifyMessage, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Answer> {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => {
      ac.abort();
      resolve({ ok: false, detail: `no answer within ${seconds(timeoutMs)}` });
    }, timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([attempt(ch, m, env, AbortSignal.any([ac.signal, AbortSignal.timeout(timeoutMs)])), late]);
  } catch (e) {
    const err = e as Error & { cause?: { message?: string } };
    if (err.name === "TimeoutError" || err.name === "AbortError") return { ok: false, detail: `no answer within ${seconds(timeoutMs)}` };
    return { ok: false, detail: err.cause?.message ? `${err.message}: ${err.cause.message}` : err.message };
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}

/** Sends `m` to every channel at once; one delivery per channel, in the channels' order. */
export async function sendAll(channels: readonly Channel[], m: NotifyMessage, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Delivery[]> {
  const message = redactor.value(m);
  const answers = await Promise.all(channels.map((ch) => sendOne(ch, message, env, timeoutMs)));
  return channels.map((ch, i) => {
    const a = answers[i] ?? { ok: false, detail: "no answer" };
    return { at: message.at, channel: ch.name, kind: ch.kind, event: message.event, ok: a.ok, detail: redact(a.detail) };
  });
}
