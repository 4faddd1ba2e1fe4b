// The command line as a process: `node out/cli/baton.js <command>` (this file, bundled by
// scripts/buildCli.ts) or, from a checkout whose bundle is stale, this file through tsx; both
// started by bin/baton.mjs. Sets the exit code and lets the process end by itself once every
// command has closed what it opened (a handle left open would keep it running: a bug to fix).
import { main } from "./baton.js";

process.exitCode = await main(process.argv.slice(2));
