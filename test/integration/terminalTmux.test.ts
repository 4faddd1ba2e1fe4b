// The real interactive `claude` (not -p) started by `baton claude` in tmux, against the scripted
// model server (issue 35's end-to-end tests). With Baton running (the web app, listening for
// terminal hooks as `baton web` does, in the test's own run folder) and Chromium on it: a subagent's
// Bash asks, its card in the browser shows the request and Needs you counts one, Allow once runs it
// in the terminal session (the file exists, the pane shows the session went on); the next Bash denied
// there with a reason reaches the model as that Bash's tool_result. With no Baton running the
// terminal's own permission dialog shows, nothing has run, and No in the terminal keeps it so. On
// 2.1.197, which draws its own dialog while Baton's hook waits, a request answered in the terminal
// leaves the card.
// Every wait is for a state: text in `tmux capture-pane`, a locator, a request the server logged.
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTerminalHooks, type StopTerminalHooks } from "../../src/main/app/terminalHookWiring.js";
import { LogBus } from "../../src/main/platform/logBus.js";
import { ensureCliBuilt } from "../support/cliBundle.js";
import { createCliEnv, testCliVersion, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer, type Script } from "../support/modelServer.js";
import { toolResultText } from "../support/model/toolResults.js";
import { tempDirs } from "../support/tempDirs.js";
import { chromiumAvailable } from "../support/ui/browser.js";
import { expectLocator as pw } from "../support/ui/expectLocator.js";
import { startWebApp, type WebApp } from "../support/ui/webApp.js";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "../..");
const hasTmux = fs.existsSync("/usr/bin/tmux");
const hasChromium = chromiumAvailable();
if (!hasTmux) console.warn("terminalTmux: /usr/bin/tmux not found, skipping");
const tempDir = tempDirs("baton-tmux-");

const PaneWaitMs = 90_000;
const Made = "made-by-terminal.txt";
const Refused = "refused-by-person.txt";
const DenyReason = "Not that one: the person said no in Baton";
const FinalText = "The terminal session is done.";
const Subagent = { type: "general-purpose", description: "Touch a file" };

/**
 * The main agent starts a subagent whose two Bash calls ask; its text comes once the subagent has
 * made its last request, so on the screen it says the whole session went on (2.1.332 runs the
 * subagent in the background in a terminal session: the main agent would otherwise answer at once).
 */
function script(server: () => ModelServer | undefined): Script {
  const subagentDone = (signal: AbortSignal) =>
    until("the subagent's last request", () => (signal.aborted || lastTurnOf(server(), "SUB-A") >= 2 ? true : undefined), 270_000);
  return {
    main: [
      {
        blocks: [
          {
            type: "tool_use",
            name: "Agent",
            input: { description: Subagent.description, prompt: "[[SUB-A]] touch a file", subagent_type: Subagent.type, run_in_background: false },
          },
        ],
      },
      { waitFor: (_request, cli) => subagentDone(cli.signal), blocks: [{ type: "text", text: FinalText }] },
      // 2.1.332 tells the main agent when its background subagent has finished.
      { blocks: [{ type: "text", text: FinalText }] },
    ],
    "SUB-A": [
      { blocks: [{ type: "tool_use", name: "Bash", input: { command: `touch ${Made}`, description: "Make the file" } }] },
      { blocks: [{ type: "tool_use", name: "Bash", input: { command: `touch ${Refused}`, description: "Make another file" } }] },
      { blocks: [{ type: "text", text: "One file made, one refused." }] },
    ],
  };
}

/** The highest turn `agent` has asked the model for (-1: none yet). */
function lastTurnOf(server: ModelServer | undefined, agent: string): number {
  return Math.max(-1, ...(server?.requests ?? []).filter((r) => r.agent === agent && r.kind === "agent").map((r) => r.turn));
}

/** A tmux server of the test's own (its socket in a temp folder) running `baton claude` in the CLI env's project. */
class TmuxSession {
  private constructor(
    private readonly socket: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Starts `node bin/baton.mjs claude <args>` in a detached 200×50 window; the server gets `env`. */
  static async start(cli: CliEnv, runtime: string, args: readonly string[]): Promise<TmuxSession> {
    const socket = path.join(tempDir(), "tmux.sock");
    const env: NodeJS.ProcessEnv = { ...cli.env, XDG_RUNTIME_DIR: runtime, BATON_CLAUDE_PATH: cli.claudePath, TERM: "xterm-256color" };
    delete env["TMUX"];
    const session = new TmuxSession(socket, env);
    const command = [process.execPath, path.join(repoRoot, "bin", "baton.mjs"), "claude", ...args].map(shellWord).join(" ");
    await session.tmux("-f", "/dev/null", "new-session", "-d", "-s", "baton", "-x", "200", "-y", "50", "-c", cli.cwd, command);
    // The pane stays after claude exits, so a failure can still be read.
    await session.tmux("set-option", "-t", "baton", "remain-on-exit", "on");
    return session;
  }

  tmux(...args: string[]): Promise<{ stdout: string }> {
    return run("/usr/bin/tmux", ["-S", this.socket, ...args], { env: this.env });
  }

  async pane(): Promise<string> {
    return (await this.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "baton")).stdout;
  }

  /** Waits until the pane shows `text`; on time out, fails with what it showed. */
  async waitFor(text: string | RegExp, timeoutMs = PaneWaitMs): Promise<string> {
    const started = Date.now();
    let shown = "";
    while (Date.now() - started < timeoutMs) {
      shown = await this.pane();
      if (typeof text === "string" ? shown.includes(text) : text.test(shown)) return shown;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error(`the terminal never showed ${String(text)}; it shows:\n${shown}`);
  }

  /** Types `text` literally, then Enter. */
  async type(text: string): Promise<void> {
    await this.tmux("send-keys", "-t", "baton", "-l", text);
    await this.tmux("send-keys", "-t", "baton", "Enter");
  }

  /**
   * Answers the dialog on the screen with `key` until `answered` holds: the CLI ignores keys for a
   * moment after a dialog appears (so a key meant for the screen before it cannot answer it), and a
   * key that came too soon is sent again.
   */
  async answer(key: string, answered: () => boolean | Promise<boolean>, timeoutMs = PaneWaitMs): Promise<void> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      await this.tmux("send-keys", "-t", "baton", key);
      const sent = Date.now();
      while (Date.now() - sent < 2_000) {
        if (await answered()) return;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
    throw new Error(`the terminal's dialog never took ${key}; it shows:\n${await this.pane()}`);
  }

  /** Ends the tmux server, then waits for the pane's process (baton claude, which waits for claude) to be gone, so the test's folders can go. */
  async kill(): Promise<void> {
    let pid: number | undefined;
    try {
      pid = Number((await this.tmux("display-message", "-p", "-t", "baton", "#{pane_pid}")).stdout.trim());
      execFileSync("/usr/bin/tmux", ["-S", this.socket, "kill-server"], { env: this.env, stdio: "ignore" });
    } catch {
      // Already gone.
    }
    if (pid !== undefined && pid > 0) await until("the terminal's process to end", () => (isRunning(pid) ? undefined : true), 30_000);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A word for the POSIX shell tmux runs the command through. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The CLI's input box is ready for a prompt (both CLIs draw a `>` prompt line once started). */
const ReadyPrompt = /^[>❯]\s/m;

/** Waits until `read` gives a value, polling; fails with `what` on time out. */
async function until<T>(what: string, read: () => T | undefined, timeoutMs = PaneWaitMs): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!hasTmux || process.platform !== "linux")("baton claude's interactive CLI in tmux", () => {
  let tmux: TmuxSession | undefined;
  let app: WebApp | undefined;
  let stopHooks: StopTerminalHooks | undefined;
  let model: ModelServer | undefined;
  let env: CliEnv | undefined;
  beforeAll(() => void ensureCliBuilt(), 120_000);
  afterEach(async () => {
    await tmux?.kill();
    await stopHooks?.();
    await app?.close();
    await model?.close();
    await env?.cleanup();
    tmux = undefined;
    stopHooks = undefined;
    app = undefined;
    model = undefined;
    env = undefined;
  });

  it.skipIf(!hasChromium)("a subagent's Bash asks on its card in the browser: Allow once runs it in the terminal, Deny's reason reaches the model", async () => {
    app = await startWebApp(script(() => app?.model), { cwdName: "terminal-tmux" });
    const runtime = tempDir();
    stopHooks = await startTerminalHooks(app.manager, { ...app.env.env, XDG_RUNTIME_DIR: runtime }, new LogBus());
    tmux = await TmuxSession.start(app.env, runtime, ["--permission-mode", "default"]);
    await tmux.waitFor(ReadyPrompt);
    await tmux.type("please touch a file in a subagent");

    const { baton, page } = app;
    const needsYou = page.getByRole("toolbar", { name: "Session controls" }).getByRole("button", { name: /^Needs you/ });
    await pw(needsYou).toHaveAttribute("aria-label", "Needs you: 1 waiting");
    const tab = baton.sessionTabs.getByRole("tab").filter({ hasText: "terminal · waiting for you" });
    await pw(tab).toHaveCount(1);
    await tab.click();
    const card = baton.subagentCard(Subagent.type, Subagent.description);
    const prompt = baton.permissionOn(card);
    await pw(prompt.getByText(`touch ${Made}`)).toBeVisible();
    // Nothing has run while the person has not answered. 2.1.332 shows no dialog while Baton's hook
    // waits; 2.1.197 shows its own at the same time, and either answer settles the call.
    expect(fs.existsSync(path.join(app.env.cwd, Made))).toBe(false);
    if (app.env.cliVersion === "2.1.332") expect(await tmux.pane()).not.toContain("Do you want to proceed?");
    else await tmux.waitFor(new RegExp(`touch ${Made}[\\s\\S]*Do you want to proceed\\?`));
    await prompt.getByRole("button", { name: "Allow once" }).click();
    await until(`${Made} in the project`, () => (fs.existsSync(path.join(app!.env.cwd, Made)) ? true : undefined));

    // The next Bash asks again: denied on the card with a reason.
    await pw(prompt.getByText(`touch ${Refused}`)).toBeVisible();
    await pw(needsYou).toHaveAttribute("aria-label", "Needs you: 1 waiting");
    await prompt.getByRole("textbox", { name: "Deny message" }).fill(DenyReason);
    await prompt.getByRole("button", { name: "Deny" }).click();

    // The session went on in the terminal: the main agent's text, which comes once the subagent is
    // done, is on its screen.
    await tmux.waitFor(FinalText);
    expect(fs.existsSync(path.join(app.env.cwd, Refused))).toBe(false);
    expect(toolResultText(app.model, "SUB-A", "toolu_SUB-A_t1_0")).toContain(DenyReason);
    await pw(needsYou).toHaveAttribute("aria-label", "Needs you: nothing waiting");
    expect(app.pageErrors).toEqual([]);
  }, 300_000);

  // Only 2.1.197 shows its dialog while Baton's hook waits (2.1.332 shows it only if Baton does not answer).
  it.skipIf(!hasChromium || testCliVersion() !== "2.1.197")("2.1.197 draws its own dialog too: answered in the terminal, the request leaves the card and Needs you", async () => {
    app = await startWebApp(script(() => app?.model), { cwdName: "terminal-tmux-both" });
    const runtime = tempDir();
    stopHooks = await startTerminalHooks(app.manager, { ...app.env.env, XDG_RUNTIME_DIR: runtime }, new LogBus());
    tmux = await TmuxSession.start(app.env, runtime, ["--permission-mode", "default"]);
    await tmux.waitFor(ReadyPrompt);
    await tmux.type("please touch a file in a subagent");

    const { baton, page } = app;
    const needsYou = page.getByRole("toolbar", { name: "Session controls" }).getByRole("button", { name: /^Needs you/ });
    await pw(needsYou).toHaveAttribute("aria-label", "Needs you: 1 waiting");
    await baton.sessionTabs.getByRole("tab").filter({ hasText: "terminal · waiting for you" }).click();
    const prompt = baton.permissionOn(baton.subagentCard(Subagent.type, Subagent.description));
    await pw(prompt.getByText(`touch ${Made}`)).toBeVisible();
    await tmux.waitFor(new RegExp(`touch ${Made}[\\s\\S]*Do you want to proceed\\?`));
    await tmux.answer("Enter", () => fs.existsSync(path.join(app!.env.cwd, Made)));
    // The file has the call's result: the next hook of the session takes the request off the card.
    await pw(prompt.getByText(`touch ${Made}`)).toHaveCount(0);
    await pw(prompt.getByText(`touch ${Refused}`)).toBeVisible();
    await pw(needsYou).toHaveAttribute("aria-label", "Needs you: 1 waiting");
    await prompt.getByRole("button", { name: "Allow once" }).click();
    await until(`${Refused} in the project`, () => (fs.existsSync(path.join(app!.env.cwd, Refused)) ? true : undefined));
    await tmux.waitFor(FinalText);
    await pw(needsYou).toHaveAttribute("aria-label", "Needs you: nothing waiting");
    expect(app.pageErrors).toEqual([]);
  }, 300_000);

  it("with no Baton running, the terminal's own dialog asks; nothing has run, and No keeps it so", async () => {
    model = await startModelServer(script(() => model));
    env = await createCliEnv({ baseUrl: model.url, cwdName: "terminal-tmux-alone" });
    tmux = await TmuxSession.start(env, tempDir(), ["--permission-mode", "default"]);
    await tmux.waitFor(ReadyPrompt);
    await tmux.type("please touch a file in a subagent");

    // The hook answered "ask", for the Agent call too: the terminal asks for it first.
    const agentAsked = await tmux.waitFor(/Hook PreToolUse:Agent requires confirmation[\s\S]*Do you want to proceed\?/);
    expect(agentAsked).toContain("Baton did not answer; the terminal asks instead");
    expect(lastTurnOf(model, "SUB-A")).toBe(-1);
    await tmux.answer("Enter", async () => !(await tmux!.pane()).includes("Hook PreToolUse:Agent requires confirmation"));
    // Then the subagent's Bash: the terminal's own dialog, and nothing has run.
    await tmux.waitFor(new RegExp(`touch ${Made}[\\s\\S]*Hook PreToolUse:Bash requires confirmation[\\s\\S]*Do you want to proceed\\?`));
    expect(fs.existsSync(path.join(env.cwd, Made))).toBe(false);
    // No (Esc): the subagent is told, and its next Bash asks the same way; No again.
    await tmux.answer("Escape", () => lastTurnOf(model, "SUB-A") >= 1);
    expect(toolResultText(model, "SUB-A", "toolu_SUB-A_t0_0")).toContain("Permission for this tool use was denied");
    expect(fs.existsSync(path.join(env.cwd, Made))).toBe(false);
    await tmux.waitFor(new RegExp(`touch ${Refused}[\\s\\S]*Do you want to proceed\\?`));
    await tmux.answer("Escape", () => lastTurnOf(model, "SUB-A") >= 2);
    expect(toolResultText(model, "SUB-A", "toolu_SUB-A_t1_0")).toContain("Permission for this tool use was denied");
    await tmux.waitFor(FinalText);
    expect(fs.existsSync(path.join(env.cwd, Made))).toBe(false);
    expect(fs.existsSync(path.join(env.cwd, Refused))).toBe(false);
  }, 300_000);
});
