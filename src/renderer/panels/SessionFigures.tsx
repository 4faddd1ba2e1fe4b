// The toolbar's figures for the tab in front: cost, the last turn's tokens, context used. Cost and
// tokens come from the CLI's turn results, which history files do not keep: a restored session's
// are unknown and say so, never "$0.00" (issue 34). Context comes from the last model call's
// usage, which history does keep.
import type { TabState } from "../state/appState.js";
import { formatContext } from "../util/contextUsage.js";
import { formatCost, formatTokens } from "../util/format.js";

/** What a figure nobody recorded shows; its tooltip says why. */
export const Unknown = "—";
export const NotInHistory = "not recorded in history";

export interface Figures {
  /** What the toolbar shows; `Unknown` when nobody recorded it. */
  readonly cost: string;
  readonly costWhy: string;
  readonly tokens: string;
  readonly tokensWhy: string;
}

/** The cost and tokens a tab shows, and what its tooltips say. */
export function figuresOf(tab: TabState | undefined): Figures {
  const meta = tab?.transcript.meta;
  if (tab?.info.kind === "restored") {
    return { cost: Unknown, costWhy: `Session cost: ${NotInHistory}`, tokens: Unknown, tokensWhy: `Tokens of the last turn: ${NotInHistory}` };
  }
  const usage = meta?.usage;
  const cost = meta?.costUsd;
  return {
    cost: cost === undefined ? Unknown : formatCost(cost),
    costWhy: cost === undefined ? "Session cost: known when a turn ends" : "Session cost",
    tokens: usage === undefined ? Unknown : `${formatTokens(usage.input_tokens)} in · ${formatTokens(usage.output_tokens)} out`,
    tokensWhy: usage === undefined ? "Tokens of the last turn: known when a turn ends" : "Tokens in / out of the last turn",
  };
}

export function SessionFigures({ tab }: { readonly tab: TabState | undefined }) {
  const meta = tab?.transcript.meta;
  const figures = figuresOf(tab);
  const context = formatContext(meta?.contextUsage, meta?.model, meta?.contextWindow);
  // An unknown figure says what it is ("cost —"), and its tooltip and name say why it is unknown.
  const stat = (value: string, why: string, what: string) =>
    value === Unknown ? (
      <span className="stat" title={why} aria-label={why}>{`${what} ${Unknown}`}</span>
    ) : (
      <span className="stat" title={why} aria-label={`${why}: ${value}`}>{value}</span>
    );
  return (
    <>
      {stat(figures.cost, figures.costWhy, "cost")}
      {stat(figures.tokens, figures.tokensWhy, "tokens")}
      <span className="stat" title="Context used" aria-label="Context used">ctx {context}</span>
    </>
  );
}
