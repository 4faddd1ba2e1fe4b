// Small history folders written by hand, shaped as the CLI writes them: one prompt per session.
import fs from "node:fs";
import path from "node:path";

/** A session whose only line is the prompt `prompt`, in project `/home/user/code/app` under `projectsDir`. */
export function writePromptSession(projectsDir: string, sessionId: string, prompt: string): void {
  const dir = path.join(projectsDir, "-home-user-code-app");
  fs.mkdirSync(dir, { recursive: true });
  const line = {
    type: "user",
    sessionId,
    uuid: `${sessionId}-u1`,
    parentUuid: null,
    isSidechain: false,
    cwd: "/home/user/code/app",
    version: "2.1.197",
    timestamp: "2026-01-01T00:00:00.000Z",
    message: { role: "user", content: prompt },
  };
  fs.writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${JSON.stringify(line)}\n`);
}
