// A stand-in for `claude` that speaks just enough stream-json to test the client's edge cases
// (bad lines, unknown or broken requests, withdrawn permissions, hooks, a process that will not
// exit). Behaviour is picked by the text of each user message. Not a model of the real CLI.
import readline from "node:readline";

const out = (value) => process.stdout.write((typeof value === "string" ? value : JSON.stringify(value)) + "\n");
const waiting = new Map();
const answered = new Set();
const SESSION = "fake-session-0001";
const result = (text) => out({ type: "result", subtype: "success", is_error: false, result: text, session_id: SESSION });
const request = (id, req) => {
  out({ type: "control_request", request_id: id, request: req });
  return new Promise((resolve) => waiting.set(id, resolve));
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (process.env.FAKE_IGNORE_TERM) process.on("SIGTERM", () => undefined);

const behaviours = {
  async garbage() {
    out("this is not json");
    out({ type: "mystery_type", session_id: SESSION });
    result("after garbage");
  },
  async "unknown-request"() {
    const answer = await request("u1", { subtype: "frobnicate" });
    result(JSON.stringify(answer));
  },
  async "broken-request"() {
    out({ type: "control_request", request_id: "b1", request: { subtype: "can_use_tool", tool_name: "Bash" } });
    const answer = await new Promise((resolve) => waiting.set("b1", resolve));
    result(JSON.stringify(answer));
  },
  async cancel() {
    void request("p1", { subtype: "can_use_tool", tool_name: "Bash", input: { command: "rm -rf x" }, tool_use_id: "toolu_1" });
    await sleep(100);
    out({ type: "control_cancel_request", request_id: "p1" });
    await sleep(300);
    result(answered.has("p1") ? "answered" : "not answered");
  },
  async hook() {
    const answer = await request("h1", { subtype: "hook_callback", callback_id: "cb1", input: { hook_event_name: "Stop" } });
    result(JSON.stringify(answer));
  },
  async "slow-permission"() {
    const answer = await request("s1", { subtype: "can_use_tool", tool_name: "Bash", input: { command: "ls" }, tool_use_id: "toolu_2" });
    result(JSON.stringify(answer));
  },
};

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "control_request" && msg.request.subtype === "initialize") {
    out({ type: "control_response", response: { subtype: "success", request_id: msg.request_id, response: { commands: [{ name: "fake" }], agents: [], models: [] } } });
  } else if (msg.type === "control_request") {
    out({ type: "control_response", response: { subtype: "success", request_id: msg.request_id } });
  } else if (msg.type === "control_response") {
    answered.add(msg.response.request_id);
    waiting.get(msg.response.request_id)?.(msg.response);
  } else if (msg.type === "user") {
    out({ type: "system", subtype: "init", session_id: SESSION, cwd: process.cwd(), tools: [], mcp_servers: [], model: "fake", permissionMode: "default", slash_commands: [] });
    const text = msg.message.content;
    void (behaviours[text] ?? (async () => result(`echo: ${text}`)))();
  }
});
rl.on("close", () => {
  if (!process.env.FAKE_IGNORE_STDIN_CLOSE) process.exit(0);
  setInterval(() => undefined, 1000);
});
