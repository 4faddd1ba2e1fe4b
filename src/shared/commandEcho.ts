// The CLI records local slash commands and `!` shell commands as user lines made of tags
// (`<command-name>/model</command-name>…`, `<local-command-stdout>…`, `<bash-input>…`). This
// reads such a text back into what it was, so the transcript can show a command line and its
// output instead of a chat bubble full of tags. Pure; text stays text (never HTML).

export type EchoPart =
  | { readonly kind: "command"; readonly line: string }
  | { readonly kind: "output"; readonly stream: "stdout" | "stderr"; readonly text: string }
  | { readonly kind: "caveat"; readonly text: string };

const Tags = new Set([
  "command-name",
  "command-message",
  "command-args",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "bash-input",
  "bash-stdout",
  "bash-stderr",
]);

// One `<tag>content</tag>` with only whitespace before it; content may span lines.
const Element = /\s*<([a-z-]+)>([\s\S]*?)<\/\1>/y;
// Colour and style codes the CLI leaves in command output ("Set model to \e[1mOpus\e[22m").
const Ansi = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * The parts of a command echo, in order, or undefined when the text is anything else (a prompt
 * that merely mentions a tag stays a prompt: the whole text must be known tags).
 */
export function parseCommandEcho(text: string | undefined): readonly EchoPart[] | undefined {
  if (text === undefined || !text.trimStart().startsWith("<")) return undefined;
  const fields = elements(text);
  if (fields === undefined || fields.length === 0) return undefined;
  const parts: EchoPart[] = [];
  const get = (tag: string) => fields.find((f) => f.tag === tag)?.content.trim();
  const name = get("command-name") ?? slashed(get("command-message"));
  let commandShown = false;
  for (const { tag, content } of fields) {
    switch (tag) {
      case "command-name":
      case "command-message":
      case "command-args":
        if (commandShown || name === undefined) break;
        commandShown = true;
        parts.push({ kind: "command", line: joinArgs(name, get("command-args")) });
        break;
      case "bash-input":
        parts.push({ kind: "command", line: `! ${content.trim()}` });
        break;
      case "local-command-stdout":
      case "bash-stdout":
        parts.push({ kind: "output", stream: "stdout", text: clean(content) });
        break;
      case "local-command-stderr":
      case "bash-stderr":
        // The shell writes an empty stderr next to every stdout; only a real one is worth a block.
        if (clean(content) !== "" || !fields.some((f) => f.tag === "bash-stdout")) parts.push({ kind: "output", stream: "stderr", text: clean(content) });
        break;
      case "local-command-caveat":
        parts.push({ kind: "caveat", text: content.trim() });
        break;
    }
  }
  return parts.length > 0 ? parts : undefined;
}

function elements(text: string): { tag: string; content: string }[] | undefined {
  const out: { tag: string; content: string }[] = [];
  Element.lastIndex = 0;
  let at = 0;
  for (;;) {
    Element.lastIndex = at;
    const m = Element.exec(text);
    if (m === null) break;
    const tag = m[1]!;
    if (!Tags.has(tag)) return undefined;
    out.push({ tag, content: m[2]! });
    at = Element.lastIndex;
  }
  return text.slice(at).trim() === "" ? out : undefined;
}

function slashed(message: string | undefined): string | undefined {
  if (message === undefined || message === "" || /\s/.test(message)) return undefined;
  return message.startsWith("/") ? message : `/${message}`;
}

function joinArgs(name: string, args: string | undefined): string {
  return args === undefined || args === "" ? name : `${name} ${args}`;
}

function clean(output: string): string {
  return output.replace(Ansi, "").replace(/\s+$/, "");
}

/**
 * A session title the CLI took from a command echo (possibly cut short) reads as the command:
 * "<command-name>/model</command-name> <command-message>mo…" → "/model". Other titles pass through.
 */
export function commandTitle(title: string): string {
  const parts = parseCommandEcho(title);
  const line = parts?.find((p) => p.kind === "command");
  if (line?.kind === "command") return line.line;
  const name = /^\s*<(command-name|bash-input)>([^<]*)<\/\1>/.exec(title);
  if (name !== null) return name[1] === "bash-input" ? `! ${name[2]!.trim()}` : name[2]!.trim();
  return title;
}

/**
 * What a user line's text is: a typed prompt, a command the user ran (a slash or `!` command, with
 * or without its output), or only a command's output (written as a line of its own).
 */
export function userTextKind(text: string): "prompt" | "command" | "output" {
  const parts = parseCommandEcho(text);
  if (parts === undefined) return "prompt";
  return parts.some((p) => p.kind === "command") ? "command" : "output";
}
