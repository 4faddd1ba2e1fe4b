// ExitPlanMode in CLI 2.1.332 may ask with `input.plan` null and only `input.planFilePath`: the
// plan is in the CLI's own plans folder (`~/.claude/plans/<slug>.md`). The path comes from the
// CLI's stdout, so it is read only when it names a regular Markdown file directly inside that
// folder (after every link is followed), up to a bounded size; anything else is a clear problem
// for the plan review, never a read elsewhere.

import os from "node:os";
import path from "node:path";
import { containedFile } from "../platform/containedPath.js";
import { NotRegularFileError, openRegularFile } from "../platform/regularFile.js";

/** Plans are a page or two; a bigger file is not a plan Baton should load into a prompt. */
export const MaxPlanBytes = 512 * 1024;

export type PlanFileRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: string };

/** The CLI's plans folder for a CLI run with `env`: `$CLAUDE_CONFIG_DIR/plans`, else `~/.claude/plans`. */
export function plansDirFor(env: NodeJS.ProcessEnv = process.env): string {
  const configDir = env["CLAUDE_CONFIG_DIR"];
  if (configDir !== undefined && configDir !== "") return path.join(path.resolve(configDir), "plans");
  const home = env["HOME"] !== undefined && env["HOME"] !== "" ? env["HOME"] : os.homedir();
  return path.join(home, ".claude", "plans");
}

export async function readPlanFile(filePath: string, plansDir: string): Promise<PlanFileRead> {
  const problem = (why: string): PlanFileRead => ({ ok: false, problem: `The plan file could not be read: ${why}.` });
  if (filePath === "" || filePath.includes("\0") || !path.isAbsolute(filePath)) return problem("its path is not an absolute path");
  const target = path.resolve(filePath);
  if (path.extname(target) !== ".md") return problem("it is not a Markdown (.md) file");
  if (path.dirname(target) !== path.resolve(plansDir)) return problem("it is not in Claude Code's plans folder");
  const contained = await containedFile(plansDir, target);
  if (contained.kind === "missing") return problem("it does not exist");
  if (contained.kind === "outside") return problem("it leads outside Claude Code's plans folder");
  try {
    const handle = await openRegularFile(contained.real);
    try {
      const { size } = await handle.stat();
      if (size > MaxPlanBytes) return problem(`it is larger than ${MaxPlanBytes / 1024} KB`);
      const buffer = Buffer.alloc(size);
      const { bytesRead } = await handle.read(buffer, 0, size, 0);
      return { ok: true, text: buffer.subarray(0, bytesRead).toString("utf8") };
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof NotRegularFileError) return problem("it is not a regular file");
    return problem((error as NodeJS.ErrnoException).code ?? "it could not be opened");
  }
}
