// A stand-in (test double) for the native `sqlite3` module, which claude-code-ui's projects.js
// imports at its top but uses only to read Cursor's chats (getCursorSessions, behind a check that
// ~/.cursor/chats/<hash> exists; the benchmark's HOME has no .cursor). Installed with
// --ignore-scripts, sqlite3 has no binary here, and building it from source is not what is
// measured. Any use throws and is recorded: the reader catches errors per Cursor session and goes
// on, so reader.mjs checks the record after the call and fails the run instead of measuring
// something else.
export const StandInUsed = Symbol.for("baton.bench.sqlite3StandInUsed");

const refuse = (what) => {
  globalThis[StandInUsed] = String(what);
  throw new Error(`claude-code-ui's reader used sqlite3 (${String(what)}): the benchmark's stand-in cannot answer`);
};

export default new Proxy(
  {},
  {
    get: (_target, property) => refuse(property),
    apply: () => refuse("a call"),
    construct: () => refuse("new"),
  },
);
