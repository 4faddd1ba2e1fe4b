// A tool error as a person should read it: the CLI wraps the message of a call it refused or
// that failed before running in `<tool_use_error>…</tool_use_error>` for the model; the window
// shows the message. Only a whole result wrapped in the tags is unwrapped: output that merely
// mentions them stays as it is.

const Wrapped = /^\s*<tool_use_error>((?:(?!<\/tool_use_error>)[\s\S])*)<\/tool_use_error>\s*$/;

export function toolResultText(text: string, isError: boolean): string {
  if (!isError) return text;
  const match = Wrapped.exec(text);
  return match === null ? text : match[1]!.trim();
}
