import { describe, expect, it } from "vitest";
import { createPathRewriter, encodeProjectDir, leftovers } from "../support/scenarios/neutralPaths.js";

describe("recording path rewriting", () => {
  it("encodes a cwd like the CLI names project folders", () => {
    expect(encodeProjectDir("/home/user/x_under.dot space/work")).toBe("-home-user-x-under-dot-space-work");
  });

  it("rewrites the temp HOME in paths and in encoded folder names", () => {
    const home = "/tmp/baton-cli-Ab12Cd/home/user";
    const rewrite = createPathRewriter(home, "/home/user", ["/tmp/baton-cli-Ab12Cd"]);
    const line = JSON.stringify({
      cwd: `${home}/code/demo`,
      memory: `${home}/.claude/projects/-tmp-baton-cli-Ab12Cd-home-user-code-demo/memory/`,
      out: "/tmp/claude-0/-tmp-baton-cli-Ab12Cd-home-user-code-demo/s/tasks/a1.output",
    });
    const out = rewrite(line);
    expect(JSON.parse(out)).toEqual({
      cwd: "/home/user/code/demo",
      memory: "/home/user/.claude/projects/-home-user-code-demo/memory/",
      out: "/tmp/claude-0/-home-user-code-demo/s/tasks/a1.output",
    });
    expect(rewrite("projects/-tmp-baton-cli-Ab12Cd-home-user-code-demo/s.jsonl")).toBe("projects/-home-user-code-demo/s.jsonl");
    expect(leftovers(rewrite, out)).toEqual([]);
    expect(leftovers(rewrite, "see /tmp/baton-cli-Ab12Cd/other")).toEqual(["/tmp/baton-cli-Ab12Cd"]);
  });
});
