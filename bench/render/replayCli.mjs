// Stands in for `claude` in the render bench: speaks the stdio protocol as far as Baton needs
// (answers `initialize` and other control requests) and, when the first user message arrives,
// writes the recorded stdout lines of BATON_REPLAY_FILE at BATON_REPLAY_RATE lines per second.
// Like the real CLI it then waits for stdin to close. Plain JavaScript: it starts in milliseconds.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const file = process.env.BATON_REPLAY_FILE;
const rate = Number(process.env.BATON_REPLAY_RATE ?? 2000);
if (!file || !(rate > 0)) {
  process.stderr.write("replayCli: BATON_REPLAY_FILE and a positive BATON_REPLAY_RATE are required\n");
  process.exit(2);
}
const { initializeAnswer, lines } = JSON.parse(readFileSync(file, "utf8"));
const TickMs = 4;
let started = false;

function write(text) {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once("drain", resolve);
  });
}

/** Keeps to the rate on a wall clock: each tick writes every line that is due by now. */
async function stream() {
  const start = performance.now();
  let sent = 0;
  while (sent < lines.length) {
    const due = Math.min(lines.length, Math.floor(((performance.now() - start) / 1000) * rate));
    if (due > sent) {
      await write(lines.slice(sent, due).join("\n") + "\n");
      sent = due;
    }
    await new Promise((resolve) => setTimeout(resolve, TickMs));
  }
}

function answer(requestId, response) {
  return JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: requestId, ...(response ? { response } : {}) } }) + "\n";
}

createInterface({ input: process.stdin }).on("line", (text) => {
  let line;
  try {
    line = JSON.parse(text);
  } catch {
    return;
  }
  if (line.type === "control_request") {
    const recorded = line.request?.subtype === "initialize" ? JSON.parse(initializeAnswer).response?.response : undefined;
    void write(answer(line.request_id, recorded));
  } else if (line.type === "user" && !started) {
    started = true;
    void stream();
  }
}).on("close", () => process.exit(0));
