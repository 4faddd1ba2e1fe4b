// `node --import ./register.mjs reader.mjs …`: puts the sqlite3 stand-in (sqlite3StandIn.mjs) in
// place of the native module before claude-code-ui's projects.js is imported.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
