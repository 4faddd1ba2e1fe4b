// A TEST DOUBLE for `claude`, not a model of it: it answers `initialize` like the CLI (so Baton
// opens the tab), then never reads its stdin again, as a hung or wedged CLI would. Only for what
// the real CLI cannot be made to do: the real one reads its input all the time.
let buffered = "";
const onData = (chunk) => {
  buffered += chunk.toString("utf8");
  const newline = buffered.indexOf("\n");
  if (newline === -1) return;
  const request = JSON.parse(buffered.slice(0, newline));
  process.stdin.off("data", onData);
  // From now on the pipe fills: nothing takes what Baton writes.
  process.stdin.pause();
  const response = { commands: [], agents: [], models: [] };
  process.stdout.write(JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: request.request_id, response } }) + "\n");
};
process.stdin.on("data", onData);
// Alive until killed.
setInterval(() => undefined, 60_000);
