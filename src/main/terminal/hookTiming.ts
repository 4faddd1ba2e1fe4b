// How long a terminal session's hook waits for the person, end to end. `baton claude` registers
// the hook with the CLI's timeout; Baton answers "ask" before that, and `baton hook` gives up a
// little later still, so the CLI never kills a hook mid-answer and the terminal asks instead.

/** The hook's timeout as registered in the CLI's settings (seconds). */
export const HookTimeoutSeconds = 600;
/** Baton's handler has this long before the server answers "ask" for it. */
export const ServerAnswerMs = (HookTimeoutSeconds - 15) * 1000;
/** `baton hook` waits this long for the server's line before answering "ask" itself. */
export const ClientWaitMs = (HookTimeoutSeconds - 5) * 1000;
/** For events Baton only observes, the hook does not hold the session up for longer than this. */
export const ObserveWaitMs = 2000;
