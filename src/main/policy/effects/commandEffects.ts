// What a command's own options and operands make it do beyond reading, for the programs an
// allowlist may name: a prefix pattern such as `sort` or `git log` says nothing of `sort -o
// /etc/x`, `git log --output=f` or `find -exec rm {} ;`. For each program the table knows:
// * the files and folders it would write: an option's value (`-o f`, `--output=f`), its operands
//   (`prettier --write src`, `uniq in out`), or the cwd (`wget URL`, `curl -O`);
// * the programs it would run (`find -exec`, `rg --pre`, `sort --compress-program`): judged as
//   simple commands of their own;
// * why Baton cannot know what it would do (`git -c`, a `--config` file, a word the shell computes
//   where an option could be): `opaque`, which the exec policy refuses.
// A program the table does not know has no effects here. Caches a tool keeps on its own (go's
// build cache, `.ruff_cache`, `.eslintcache`) are not counted; a cache path named on the line is.
// Pure: words in, effects out (the table itself is in commandEffectTable.ts).

import { PROGRAMS } from "./commandEffectTable.js";
import { programName } from "../shell/commandWrappers.js";
import { applySpec, type CommandEffects, type EffectRun, type EffectSink, type EffectWrite } from "./effectSpec.js";
import { runtimeVariableEffect } from "../shell/runtimeVariables.js";
import type { ShellWord } from "../shell/shellWords.js";

export type { CommandEffects, EffectRun, EffectWrite, EffectWriteKind } from "./effectSpec.js";

const NONE: CommandEffects = { writes: [], runs: [] };

/**
 * The effects of the simple command `words` (command word first, wrappers already removed).
 * `appended`: a wrapper adds arguments only known when it runs (`xargs`).
 */
export function commandEffects(words: readonly ShellWord[], appended = false): CommandEffects {
  const head = words[0];
  const name = head === undefined ? undefined : programName(head);
  const spec = name === undefined ? undefined : PROGRAMS.get(name);
  if (spec === undefined) return NONE;
  const writes: EffectWrite[] = [];
  const runs: EffectRun[] = [];
  let opaque: string | undefined;
  const sink: EffectSink = {
    write: (kind, target) => {
      if (target !== undefined) writes.push({ kind, target });
    },
    run: (run, via, base) => {
      if (run.length > 0) runs.push({ words: run, via, ...(base !== undefined ? { base } : {}) });
    },
    launch: (run, via, options) => {
      if (run.length === 0) return;
      const base = options?.base;
      runs.push({ words: run, via, launched: true, ...(options?.script === true ? { script: true } : {}), ...(base !== undefined ? { base } : {}) });
    },
    refuse: (reason) => {
      opaque ??= reason;
    },
  };
  if (appended) sink.refuse(`${name} is given arguments only known when it runs, and an option among them could write files or run programs`);
  applySpec(name!, spec, words.slice(1), sink);
  return { writes, runs, ...(opaque !== undefined ? { opaque } : {}) };
}

/**
 * Why variables set for `words` make it unknowable (`GIT_EXTERNAL_DIFF=x git diff`, `LD_PRELOAD=x
 * ls`: runtimeVariables.ts for those that change any program); undefined when they do not.
 */
export function environmentEffect(words: readonly ShellWord[], variables: readonly string[]): string | undefined {
  for (const variable of variables) {
    const any = runtimeVariableEffect(variable);
    if (any !== undefined) return any;
  }
  const head = words[0];
  const name = head === undefined ? undefined : programName(head);
  const pattern = name === undefined ? undefined : PROGRAMS.get(name)?.environment;
  if (pattern === undefined) return undefined;
  const changed = variables.find((v) => pattern.test(v));
  return changed === undefined ? undefined : `the line sets ${changed}, which changes what ${name} runs or where it writes`;
}

