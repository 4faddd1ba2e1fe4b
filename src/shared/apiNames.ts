// The names of the API contract (apiContract.ts), in a file without zod: the preload bundles what
// it imports, and it and the renderer's transports need only the names, never the schemas. The
// contract's table is checked against these lists, so neither can gain a member alone.

/** The request/response methods of BatonApi: one IPC channel and one RPC name each. */
export const BatonMethodNames = [
  "listTabs",
  "listSessions",
  "searchHistory",
  "findInSession",
  "openSession",
  "loadSubagentBlocks",
  "exportSession",
  "newSession",
  "repositoryOf",
  "forkSession",
  "closeTab",
  "sendPrompt",
  "interrupt",
  "setPermissionMode",
  "setModel",
  "previewRewind",
  "applyRewind",
  "answerPermission",
  "answerEscalation",
  "getSessionInfo",
  "chooseDirectory",
  "showWindow",
  "getHistoryFolder",
  "setHistoryFolder",
  "getClaudeStatus",
  "getPolicy",
  "setOrchestration",
  "setPolicyCheckOnly",
  "addRule",
  "deleteRule",
  "resetPresets",
  "listWorktrees",
  "worktreeDiff",
  "mergeWorktree",
  "removeWorktree",
  "openWorktree",
] as const;
export type BatonMethodName = (typeof BatonMethodNames)[number];

/**
 * The subscriptions of BatonApi, by member: the topic they travel under (web mode's `subscribe`
 * message, the IPC channel), and the name of the key a keyed one takes first (its field on the wire).
 */
export const BatonSubscriptions = {
  onTranscriptDelta: { topic: "transcript", key: "tabId" },
  onTabsChanged: { topic: "tabs" },
  onLog: { topic: "log" },
  onPolicyChanged: { topic: "policy" },
} as const;
export type SubscriptionName = keyof typeof BatonSubscriptions;
export type SubscriptionTopic = (typeof BatonSubscriptions)[SubscriptionName]["topic"];
/** The subscriptions that take a key (a tab id) before the listener. */
export type KeyedSubscription = { [S in SubscriptionName]: (typeof BatonSubscriptions)[S] extends { readonly key: string } ? S : never }[SubscriptionName];

export const SubscriptionNames = Object.keys(BatonSubscriptions) as readonly SubscriptionName[];

/** The subscription a topic names; undefined for a topic the contract does not have. */
export function subscriptionOfTopic(topic: unknown): SubscriptionName | undefined {
  return SubscriptionNames.find((name) => BatonSubscriptions[name].topic === topic);
}

/** The key's name of a subscription (`tabId`), or undefined when it takes none. */
export function keyOf(name: SubscriptionName): string | undefined {
  const entry = BatonSubscriptions[name];
  return "key" in entry ? entry.key : undefined;
}

/**
 * Electron IPC channel names: one per method, one per subscription topic, one to end a
 * subscription, and the one every subscription's events arrive on (tagged with its id).
 */
export const IpcChannels = {
  method: (name: BatonMethodName): string => `baton:${name}`,
  subscribe: (name: SubscriptionName): string => `baton:subscribe:${BatonSubscriptions[name].topic}`,
  unsubscribe: "baton:unsubscribe",
  event: "baton:event",
} as const;
