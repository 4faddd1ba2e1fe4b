#!/usr/bin/env node
// `npx baton <command>`: the headless command line. Runs the TypeScript sources through tsx so the
// command line and the app share one core without a separate build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main/commands/baton.ts");
process.exitCode = await main(process.argv.slice(2));
