// `baton worktrees`: every git worktree of a repository (issue 25): the ones people made and the
// ones Claude Code's agents made (`isolation: "worktree"`), with branch, HEAD, base, changes, lock,
// the agent that made it and whether it is orphaned; and the actions that never lose a change:
// remove (refused for a dirty or unmerged worktree unless --rescue), diff, merge.
import path from "node:path";
import { parseArgs } from "node:util";
import { resolveProjectsDir } from "../platform/projectsDir.js";
import { diffWorktree, listWorktrees, mergeWorktree, removeWorktree, WorktreeActionError } from "../worktrees/index.js";
import type { WorktreeInfo, WorktreeListing, WorktreeMerge, WorktreeRemoval } from "../../shared/worktrees.js";
import { terminalJson, terminalText } from "../../shared/terminalText.js";
import { ExitCode, terminalIO, type CommandIO } from "./commandIO.js";

const HELP = `Usage: baton worktrees [--repo <dir>] [--projects-dir <dir>] [--json]
       baton worktrees remove <path> [--rescue] [--repo <dir>] [--json]
       baton worktrees diff <path> [--repo <dir>]
       baton worktrees merge <path> [--repo <dir>] [--json]

Lists every worktree of the repository: git's own (git worktree list) and folders left in Claude
Code's .claude/worktrees/, with branch, HEAD (short hash, age, subject), base branch with commits
ahead/behind, uncommitted changes (staged/unstaged/untracked, files listed below the table), lock,
the session and agent that made it (from Claude Code's history) and, when orphaned, why (folder
gone, lock holder gone, session ended, unregistered), and below the table each worktree's
uncommitted files, the commits no other branch holds and the ignored files a removal would
delete (git keeps no copy of those, and no rescue commits them). Nothing is pruned.

Git runs only in a repository you own, and with nothing the repository configures: no hook,
fsmonitor, filter, diff or merge driver, pager, editor, signing or transport (a file whose merge
driver the repository names is a conflict; see docs/configuration.md).

  remove   Removes a clean worktree (git worktree remove). A worktree with uncommitted changes or
           with commits no other branch holds is refused (exit 1, files named) unless --rescue:
           then everything, untracked files included, is committed to a new branch
           baton/rescue/<name>-<timestamp> first, and the worktree removed after. Locked worktrees,
           the main worktree and paths that are not worktrees of the repository are refused.
           The worktree's own branch is kept.
  diff     The worktree (commits and uncommitted changes, untracked files included) against where
           it left its base branch.
  merge    Merges the worktree's commits into its base branch: a fast-forward when possible, else
           a merge commit, made in the worktree that has the base checked out or, when none has,
           from git's objects alone (git 2.38+; no files touched). A conflict is reported with its
           files and nothing changed (exit 1). Never forced.

Options:
  --repo <dir>           A folder in the repository (default: the current folder)
  --projects-dir <dir>   Claude Code's history, for the agents (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)
  --rescue               remove: keep every change on a rescue branch, then remove
  --json                 Print the objects as JSON
`;

interface Values {
  repo?: string;
  "projects-dir"?: string;
  rescue?: boolean;
  json?: boolean;
  help?: boolean;
}

export async function run(args: readonly string[], terminal: CommandIO): Promise<number> {
  // Paths, branch names, subjects and agent descriptions can hold anything a terminal would act on.
  const io = terminalIO(terminal);
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        repo: { type: "string" },
        "projects-dir": { type: "string" },
        rescue: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    io.stderr(`baton worktrees: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return ExitCode.usage;
  }
  if (values.help === true) {
    io.stdout(HELP);
    return ExitCode.ok;
  }
  const [action = "list", target, ...extra] = positionals;
  const repo = path.resolve(values.repo ?? process.cwd());
  const usage = (message: string): number => {
    io.stderr(`baton worktrees: ${message}\n\n${HELP}`);
    return ExitCode.usage;
  };
  if (extra.length > 0) return usage(`unexpected arguments: ${extra.join(" ")}`);
  if (action !== "remove" && values.rescue === true) return usage("--rescue goes with remove");
  try {
    switch (action) {
      case "list":
        if (target !== undefined) return usage(`list takes no path (use --repo)`);
        return await list(io, repo, values);
      case "remove":
      case "diff":
      case "merge":
        if (target === undefined || target === "") return usage(`${action} needs the worktree's path`);
        return await act(io, action, repo, target, values);
      default:
        return usage(`unknown action "${action}"`);
    }
  } catch (error) {
    if (error instanceof WorktreeActionError) {
      io.stderr(`baton worktrees: ${error.message}\n`);
      for (const file of error.files) io.stderr(`  ${file}\n`);
      return ExitCode.failure;
    }
    throw error;
  }
}

async function list(io: CommandIO, repo: string, values: Values): Promise<number> {
  const projectsDir = resolveProjectsDir(values["projects-dir"] === undefined ? {} : { override: values["projects-dir"] });
  const listing = await listWorktrees(repo, { projectsDir });
  io.stdout(values.json === true ? `${terminalJson(listing, 2)}\n` : renderListing(listing, Date.now()));
  return ExitCode.ok;
}

async function act(io: CommandIO, action: "remove" | "diff" | "merge", repo: string, target: string, values: Values): Promise<number> {
  if (action === "diff") {
    io.stdout(await diffWorktree(repo, target));
    return ExitCode.ok;
  }
  if (action === "remove") {
    const removal = await removeWorktree(repo, target, { rescue: values.rescue === true });
    io.stdout(values.json === true ? `${terminalJson(removal, 2)}\n` : renderRemoval(removal));
    return ExitCode.ok;
  }
  const merged = await mergeWorktree(repo, target);
  io.stdout(values.json === true ? `${terminalJson(merged, 2)}\n` : renderMerge(merged));
  return merged.kind === "conflict" ? ExitCode.failure : ExitCode.ok;
}

export function renderRemoval(r: WorktreeRemoval): string {
  if (r.kind === "removed") return `Removed ${r.path}\n`;
  return `Rescued ${r.files.length} uncommitted file(s) and every commit to branch ${r.rescueBranch} (${r.rescueCommit.slice(0, 12)}), then removed ${r.path}\n`;
}

export function renderMerge(m: WorktreeMerge): string {
  switch (m.kind) {
    case "up-to-date":
      return `${m.base} already holds every commit of the worktree\n`;
    case "fast-forward":
      return `Fast-forwarded ${m.base} from ${m.from.slice(0, 12)} to ${m.to.slice(0, 12)}\n`;
    case "merge-commit":
      return `Merged into ${m.base} with merge commit ${m.commit.slice(0, 12)}\n`;
    case "conflict":
      return `Merge into ${m.base} conflicts; it was aborted and ${m.base} is unchanged. Conflicting files:\n${m.files.map((f) => `  ${f}\n`).join("")}`;
  }
}

export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

function changes(w: WorktreeInfo): string {
  if (w.dirt === undefined) return "-";
  if (w.dirt.files.length === 0) return "clean";
  return `${w.dirt.staged}S ${w.dirt.unstaged}U ${w.dirt.untracked}?`;
}

function agentCell(w: WorktreeInfo): string {
  if (w.agent !== undefined) return `${w.agent.agentId} (session ${w.agent.sessionId}${w.agent.sessionLive ? ", live" : ""})${w.agent.description === undefined ? "" : ` ${w.agent.description}`}`;
  return w.agentIdFromName === undefined ? "-" : `${w.agentIdFromName} (no history)`;
}

const Header = ["PATH", "BRANCH", "HEAD", "BASE", "CHANGES", "LOCK", "STATE", "AGENT"] as const;

export function renderListing(listing: WorktreeListing, now: number): string {
  const rows = listing.worktrees.map((w) =>
    [
      w.path,
      w.branch ?? "(detached)",
      w.head === undefined ? "-" : `${w.head.shortSha} ${age(now - w.head.time)} ${w.head.subject}`,
      w.base === undefined ? "-" : `${w.base} +${w.ahead ?? "?"}/-${w.behind ?? "?"}`,
      changes(w),
      w.locked ? `locked${w.lockReason === undefined ? "" : `: ${w.lockReason}`}` : "-",
      w.orphaned !== undefined ? `orphaned: ${w.orphaned}` : w.isMain ? "main" : w.problem !== undefined ? `problem: ${w.problem}` : "ok",
      agentCell(w),
    ].map(cell),
  );
  const widths = Header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ").trimEnd();
  const below = listing.worktrees.flatMap((w) => [
    section(`Uncommitted in ${w.path}`, (w.dirt?.files ?? []).map((f) => `${f.code} ${f.path}`), w.dirt?.files.length ?? 0),
    section(`Commits no other branch holds in ${w.path}`, (w.unmergedCommits ?? []).map((c) => `${c.shortSha} ${c.subject}`), w.unmerged ?? 0),
    section(`Ignored in ${w.path} (removing it deletes them; no rescue keeps them)`, w.ignored?.paths ?? [], w.ignored?.count ?? 0),
  ]);
  return `Repository ${cell(listing.repository)}\n${[line(Header), ...rows.map(line)].join("\n")}\n${below.join("")}`;
}

/** A titled list below the table, empty when `count` is 0; `items` may be the first of `count`. */
function section(title: string, items: readonly string[], count: number): string {
  if (count === 0) return "";
  const more = count > items.length ? `  … and ${count - items.length} more\n` : "";
  return `\n${cell(title)}:\n${items.map((item) => `  ${cell(item)}\n`).join("")}${more}`;
}

/** One table cell: neutralised before the widths are measured, and on one line. */
function cell(text: string): string {
  return terminalText(text).replace(/[\n\t]/g, " ");
}
