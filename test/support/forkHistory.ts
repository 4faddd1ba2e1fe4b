// A history folder for the fork link's tests (issue 37): sessions s1, its fork f1 and f1's fork ff,
// one prompt each in one project, and the forks as Baton records them in its audit trail.
import fs from "node:fs";
import path from "node:path";
import type { AuditFork } from "../../src/main/audit/audit.js";

export const ForkPrompt = "00000000-0000-4000-8000-000000000002";
export const fork: AuditFork = { forkSessionId: "f1", originSessionId: "s1", promptUuid: ForkPrompt, time: "2026-12-06T10:00:00.000Z" };
export const forkOfFork: AuditFork = { forkSessionId: "ff", originSessionId: "f1", promptUuid: "00000000-0000-4000-8000-000000000009", time: "2026-12-06T10:05:00.000Z" };

/** Writes the three sessions under `<dir>/projects`; returns that folder. */
export function forkProjects(dir: string): string {
  const projectsDir = path.join(dir, "projects");
  const folder = path.join(projectsDir, "-home-user-code-x");
  fs.mkdirSync(folder, { recursive: true });
  for (const [i, sessionId] of ["s1", "f1", "ff"].entries()) {
    const line = { type: "user", message: { role: "user", content: `prompt of ${sessionId}` }, uuid: `u-${sessionId}`, parentUuid: null, timestamp: `2026-12-06T0${i}:00:00.000Z`, sessionId, cwd: "/home/user/code/x" };
    fs.writeFileSync(path.join(folder, `${sessionId}.jsonl`), `${JSON.stringify(line)}\n`);
  }
  return projectsDir;
}
