// A subscription's response headers for the scripted model server (ScriptTurn.headers), and the
// env that signs the CLI in with a subscription: the CLI reports the plan's limits only then
// (`rate_limit_event`, docs/protocol-notes.md).

/** Claude Code signed in with a subscription: an OAuth token and no API key. */
export const SubscriptionEnv: Readonly<Record<string, string>> = { CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-scripted", ANTHROPIC_API_KEY: "" };

/** The `anthropic-ratelimit-unified-*` headers: the five-hour window decides, both reset at the given epoch seconds. */
export function planHeaders(fiveHour: number, sevenDay: number, resets: { readonly fiveHour: number; readonly sevenDay: number }, status = "allowed"): Record<string, string> {
  return {
    "anthropic-ratelimit-unified-status": status,
    "anthropic-ratelimit-unified-5h-utilization": String(fiveHour),
    "anthropic-ratelimit-unified-5h-reset": String(resets.fiveHour),
    "anthropic-ratelimit-unified-7d-utilization": String(sevenDay),
    "anthropic-ratelimit-unified-7d-reset": String(resets.sevenDay),
    "anthropic-ratelimit-unified-representative-claim": "five_hour",
    "anthropic-ratelimit-unified-reset": String(resets.fiveHour),
    "anthropic-ratelimit-unified-fallback": "available",
  };
}
