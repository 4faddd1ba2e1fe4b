// The scripted model of the share tests (issue 37): a conductor that sends an outer agent, which
// sends an inner one that runs Bash, then a second prompt's answer (also a fork's first: the
// server answers by the conversation's turn). Every agent in the foreground on every CLI, so an
// answer means the agents are done before a tab closes.
import type { Script } from "../modelServer.js";
import { agentCall, bashCall, text } from "./types.js";

export function sharesScript(outerDescription: string): Script {
  return {
    main: [
      { blocks: [agentCall(outerDescription, "[[SUB-A]] look around", { run_in_background: false })] },
      { blocks: [text("The agents looked.")] },
      { blocks: [text("Second answer.")] },
    ],
    "SUB-A": [
      { blocks: [text("Asking an inner agent."), agentCall("Inner look", "[[SUB-B]] echo something", { run_in_background: false })] },
      { blocks: [bashCall("echo outer", "Echo from the outer agent")] },
      { blocks: [text("Outer done.")] },
    ],
    "SUB-B": [{ blocks: [bashCall("echo inner", "Echo from the inner agent")] }, { blocks: [text("Inner done.")] }],
  };
}
