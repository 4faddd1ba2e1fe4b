// "Continue in terminal" (issue 35): the command that resumes a session in the person's own
// terminal under `baton claude`, so Baton still sees and answers its requests. POSIX shells.

/** `value` as one word for a POSIX shell: single-quoted unless it is plainly safe. */
export function shellWord(value: string): string {
  if (/^[A-Za-z0-9._\/:=@%+-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `cd '<cwd>' && baton claude --resume <id>`, or without the `cd` when the folder is unknown. */
export function continueCommand(sessionId: string, cwd?: string): string {
  const resume = `baton claude --resume ${shellWord(sessionId)}`;
  return cwd !== undefined && cwd !== "" ? `cd ${shellWord(cwd)} && ${resume}` : resume;
}
