// Tool card bodies rendered to static HTML: the Edit diff comes from the structured patch, TodoWrite
// is a checklist, MCP tools name their server, tool output stays text (never HTML).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ToolCallRecord } from "../../src/shared/transcript.js";
import { ToolBody } from "../../src/renderer/transcript/toolBodies.js";
import { mcpName, toolSummary } from "../../src/renderer/util/format.js";

const render = (call: ToolCallRecord): string => renderToStaticMarkup(createElement(ToolBody, { call }));
const call = (name: string, input: ToolCallRecord["input"], result?: ToolCallRecord["result"]): ToolCallRecord => ({
  toolUseId: "toolu_1",
  name,
  input,
  status: "completed",
  ...(result !== undefined ? { result } : {}),
});

describe("tool card bodies", () => {
  it("draws an Edit diff from structuredPatch, each row with its line numbers and the changed word marked", () => {
    const html = render(
      call("Edit", { file_path: "/home/user/code/x/a.ts", old_string: "a", new_string: "b" }, {
        text: "ok",
        isError: false,
        structured: { filePath: "/home/user/code/x/a.ts", structuredPatch: [{ oldStart: 3, oldLines: 2, newStart: 3, newLines: 2, lines: [" keep", "-const a = 1;", "+const a = 2;"] }] },
      }),
    );
    expect(html).toContain("@@ -3,2 +3,2 @@");
    expect(html).toMatch(/class="dl ctx" data-old-line="3" data-new-line="3">.*<span class="tx">keep<\/span>/);
    expect(html).toMatch(/class="dl del" data-old-line="4"><span class="ln"[^>]*>4<\/span><span class="ln"[^>]*><\/span><span class="mk"[^>]*>-<\/span><span class="tx">const a = <span class="wd">1<\/span>;<\/span>/);
    expect(html).toMatch(/class="dl add" data-new-line="4">.*<span class="tx">const a = <span class="wd">2<\/span>;<\/span>/);
  });

  it("diffs an appending Edit without a patch as the added lines only, not the whole old text removed", () => {
    const html = render(call("Edit", { file_path: "/x", old_string: "last line\n", new_string: "last line\nnew one\nnew two\n" }));
    expect(html).not.toContain("@@ -0 +0 @@");
    expect(html).not.toContain('class="dl del"');
    expect(html.match(/class="dl add"/g)).toHaveLength(2);
    expect(html).toMatch(/class="dl ctx">.*<span class="tx">last line<\/span>/);
    expect(html).toContain("line numbers unknown");
    expect(html).not.toContain("No newline");
  });

  it("shows a Write that created a file as a new file, every line added", () => {
    const html = render(call("Write", { file_path: "/home/user/code/x/n.txt", content: "hello\nworld\n" }, { text: "File created successfully at: /home/user/code/x/n.txt", isError: false, structured: { type: "create", filePath: "/home/user/code/x/n.txt", content: "hello\nworld\n", structuredPatch: [], originalFile: null } }));
    expect(html).toContain(">new file<");
    expect(html).toContain("@@ -0,0 +1,2 @@");
    expect(html.match(/class="dl add" data-new-line="\d"/g)).toHaveLength(2);
  });

  it("shows a tool error's message without the CLI's tags", () => {
    const html = render(call("Edit", { file_path: "/x", old_string: "nothere", new_string: "x" }, { text: "<tool_use_error>String to replace not found in file.\nString: nothere</tool_use_error>", isError: true, structured: "Error: String to replace not found in file.\nString: nothere" }));
    expect(html).toContain("String to replace not found in file.\nString: nothere");
    expect(html).not.toContain("tool_use_error");
    const bash = render(call("Bash", { command: "x" }, { text: "<tool_use_error>Permission denied</tool_use_error>", isError: true }));
    expect(bash).toMatch(/class="out error" aria-label="Output">Permission denied<\/pre>/);
  });

  it("shows TodoWrite as a checklist", () => {
    const html = render(
      call("TodoWrite", { todos: [{ content: "Write tests", status: "completed", activeForm: "" }, { content: "Ship", status: "in_progress", activeForm: "" }, { content: "Rest", status: "pending", activeForm: "" }] }),
    );
    expect(html).toContain('aria-label="Todo list"');
    expect(html).toMatch(/class="todo completed">.*☑.*Write tests/);
    expect(html).toMatch(/class="todo in_progress">.*◐.*Ship/);
    expect(html).toMatch(/class="todo pending">.*☐.*Rest/);
  });

  it("keeps Bash output as text", () => {
    const html = render(call("Bash", { command: "echo '<b>x</b>'" }, { text: "<img src=x onerror=alert(1)>", isError: false }));
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("links the WebFetch URL only when the shared link policy allows it; otherwise shows it as text", () => {
    const allowed = render(call("WebFetch", { url: "https://example.com/page", prompt: "summarise" }));
    expect(allowed).toMatch(/<a href="https:\/\/example.com\/page" target="_blank" rel="noopener noreferrer">/);
    for (const url of ["javascript:alert(1)", "http://example.com/", "data:text/html,x", "file:///etc/passwd", " https://example.com/", "//evil.example/"]) {
      const html = render(call("WebFetch", { url, prompt: "p" }));
      expect(html, url).not.toContain("<a");
      expect(html, url).toContain('class="url refused"');
    }
  });

  it("shows hidden direction and zero-width characters in commands, paths and output as markers", () => {
    const bash = render(call("Bash", { command: "echo safe \u202E# txt.exe" }, { text: "ok\u200Bdone", isError: false }));
    expect(bash).toMatch(/\$ echo safe <span class="hidden-char direction"[^>]*>⟨U\+202E⟩<\/span># txt.exe/);
    expect(bash).toMatch(/ok<span class="hidden-char invisible"[^>]*>⟨U\+200B⟩<\/span>done/);
    const read = render(call("Read", { file_path: "/home/user/code/x/\u2067cod.exe\u2069" }));
    expect(read).toMatch(/⟨U\+2067⟩<\/span>cod\.exe<span[^>]*>⟨U\+2069⟩/);
    expect(read).not.toMatch(/[\u2066-\u2069\u202A-\u202E\u200B]/);
  });

  it("names the MCP server and shows input and result as JSON", () => {
    expect(mcpName("mcp__github__create_issue")).toEqual({ server: "github", tool: "create_issue" });
    expect(mcpName("Bash")).toBeUndefined();
    const html = render(call("mcp__github__create_issue", { title: "Bug" }, { text: "created", isError: false, structured: { number: 7 } }));
    expect(html).toContain("MCP server github");
    expect(html).toContain("&quot;title&quot;: &quot;Bug&quot;");
    expect(html).toContain("&quot;number&quot;: 7");
  });

  it("summarises calls in one line", () => {
    expect(toolSummary("Bash", { command: "ls -la" })).toBe("ls -la");
    expect(toolSummary("Read", { file_path: "/home/user/code/project/src/a.ts" })).toBe("…/src/a.ts");
    expect(toolSummary("Grep", { pattern: "TODO" })).toBe("TODO");
    expect(toolSummary("SendMessage", { to: "a2f8510a5c5bfc77b", summary: "second part", message: "Now do the second part." })).toBe("→ a2f8510a5c5bfc77b: second part");
    expect(toolSummary("SendMessage", { to: "researcher", message: "Stop now." })).toBe("→ researcher: Stop now.");
    // Baton's agent tools: the question, the plan's goal, the answer or decision and whom it is for.
    expect(toolSummary("mcp__baton__ask_conductor", { question: "Which port?" })).toBe("Which port?");
    expect(toolSummary("mcp__baton__submit_plan", { goal: "Add a limiter", steps: ["Write it"] })).toBe("Add a limiter");
    expect(toolSummary("mcp__baton__answer_subagent", { agent: "a1b2", answer: "8080" })).toBe("→ a1b2: 8080");
    expect(toolSummary("mcp__baton__review_subagent_plan", { agent: "a1b2", decision: "approved" })).toBe("→ a1b2: approved");
    const agentName = (id: string) => (id === "a2f8510a5c5bfc77b" ? "Two-part helper" : undefined);
    expect(toolSummary("SendMessage", { to: "a2f8510a5c5bfc77b", summary: "second part" }, { agentName })).toBe("→ Two-part helper: second part");
    expect(toolSummary("SendMessage", { to: "someone-else", summary: "hi" }, { agentName })).toBe("→ someone-else: hi");
    expect(toolSummary("TaskUpdate", { taskId: "3", status: "completed" })).toBe("3");
  });
});
