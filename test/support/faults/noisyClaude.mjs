// A wrapper around the REAL `claude` (its path in NOISY_REAL_CLAUDE) that adds the noise a broken
// install or a chatty build prints: non-JSON lines on stdout before the CLI starts, stderr
// chatter (many lines, one huge), and, after the CLI's first assistant line, a line cut in half,
// a line longer than Baton's limit (NOISY_HUGE_BYTES) and a line that is not UTF-8. Everything the
// CLI itself writes passes through unchanged; stdin and stderr are the CLI's own.
import { spawn } from "node:child_process";

const real = process.env.NOISY_REAL_CLAUDE;
const hugeBytes = Number(process.env.NOISY_HUGE_BYTES);
process.stdout.write("Welcome! Checking for updates... (not JSON)\n");
process.stdout.write('{"type": "system", "broken\n');
for (let i = 0; i < 300; i++) process.stderr.write(`chatter ${i}: some debug output of a chatty build\n`);
process.stderr.write("z".repeat(100_000) + "\n");

const child = spawn(real, process.argv.slice(2), { stdio: ["inherit", "pipe", "inherit"] });
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
let injected = false;
let sawAssistant = false;
let partial = "";
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  if (injected) return;
  partial += chunk.toString("utf8");
  const lines = partial.split("\n");
  partial = lines.pop() ?? "";
  sawAssistant ||= lines.some((line) => line.startsWith('{"type":"assistant"'));
  // After the first assistant line, between two of the CLI's own lines.
  if (sawAssistant && partial === "") {
    injected = true;
    const cut = JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "cut off" }] } });
    process.stdout.write(cut.slice(0, cut.length / 2) + "\n");
    process.stdout.write(`{"type":"huge","pad":"${"h".repeat(hugeBytes)}"}\n`);
    process.stdout.write(Buffer.concat([Buffer.from('{"type":"bytes","text":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}\n')]));
  }
});
child.on("exit", (code, signal) => {
  if (signal !== null) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
