// The Rules view (issue 22): every rule of the person's in force, with what it does, where it
// holds and who made it, each deletable; a form to add one (its syntax error shown in place); the
// presets in force, where they came from, each one's sandbox (PresetSandbox.tsx), and a way back to
// the built-ins. Rule text may come from the model (an "Always allow" answer keeps the model's
// command), so it is drawn through VisibleText.
import { useState } from "react";
import type { PolicyInfo } from "../../shared/api.js";
import type { PermissionRule, RuleBehavior, RuleScope } from "../../shared/policy.js";
import { api, report } from "../apiClient.js";
import { useApp } from "../state/appState.js";
import { VisibleText } from "../util/VisibleText.js";
import { PresetSandbox } from "./PresetSandbox.js";

const Origins: Readonly<Record<string, string>> = { prompt: "a permission prompt", "rules-view": "the Rules view", file: "the rules file" };

export function RulesView() {
  const policy = useApp((s) => s.policy);
  if (policy === undefined) return <div className="empty">This Baton runs without rules or presets.</div>;
  return (
    <div className="rules-view">
      <h4>Your rules</h4>
      {policy.rulesProblem !== undefined ? (
        <div role="alert" className="folder-problem" aria-label="Rules file problem">
          <VisibleText text={policy.rulesProblem} />
        </div>
      ) : null}
      <RuleList rules={policy.rules} />
      <AddRule />
      <Presets policy={policy} />
    </div>
  );
}

function RuleList({ rules }: { rules: readonly PermissionRule[] }) {
  if (rules.length === 0) return <div className="dim">No rules: every call no preset decides is asked.</div>;
  return (
    <ul className="rule-list" aria-label="Rules">
      {rules.map((rule) => (
        <RuleRow key={`${rule.scope}\u0000${rule.scopeKey ?? ""}\u0000${rule.behavior}\u0000${rule.rule}`} rule={rule} />
      ))}
    </ul>
  );
}

function RuleRow({ rule }: { rule: PermissionRule }) {
  const [busy, setBusy] = useState(false);
  const remove = async (): Promise<void> => {
    setBusy(true);
    const key = { behavior: rule.behavior, rule: rule.rule, scope: rule.scope, ...(rule.scopeKey !== undefined ? { scopeKey: rule.scopeKey } : {}) };
    report("Delete rule", await api().deleteRule(key));
    setBusy(false);
  };
  return (
    <li className="rule" aria-label={`Rule ${rule.behavior} ${rule.rule}`}>
      <span className={`rule-behavior ${rule.behavior}`}>{rule.behavior}</span>
      <code className="rule-text"><VisibleText text={rule.rule} /></code>
      <span className="rule-scope"><Scope rule={rule} /></span>
      <span className="dim rule-origin" title={rule.createdAt}>from {Origins[rule.origin] ?? <VisibleText text={rule.origin} />}</span>
      <button disabled={busy} aria-label={`Delete rule ${rule.behavior} ${rule.rule}`} onClick={() => void remove()}>Delete</button>
    </li>
  );
}

function Scope({ rule }: { rule: PermissionRule }) {
  const title = useApp((s) => {
    if (rule.scope !== "session") return undefined;
    const id = s.tabOrder.find((t) => s.tabs[t]?.info.sessionId === rule.scopeKey);
    return id === undefined ? undefined : s.tabs[id]?.info.title;
  });
  if (rule.scope === "everywhere") return <>everywhere</>;
  if (rule.scope === "session") return <>session{title !== undefined ? <> “<VisibleText text={title} />”</> : null}</>;
  return (
    <span className="path" title={rule.scopeKey}>
      project <bdi dir="ltr"><VisibleText text={rule.scopeKey ?? ""} /></bdi>
    </span>
  );
}

function AddRule() {
  const activeTab = useApp((s) => (s.activeTabId !== undefined ? s.tabs[s.activeTabId]?.info : undefined));
  const [behavior, setBehavior] = useState<RuleBehavior>("allow");
  const [scope, setScope] = useState<RuleScope>("project");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  // A session or project rule belongs to the tab in front: its session, its folder.
  const placed = scope === "everywhere" || activeTab !== undefined;
  const add = async (): Promise<void> => {
    setBusy(true);
    const r = await api().addRule({ behavior, rule: text.trim(), scope, ...(scope !== "everywhere" && activeTab !== undefined ? { tabId: activeTab.tabId } : {}) });
    setBusy(false);
    if (!r.ok) {
      setError(r.error.message);
      return;
    }
    setError(undefined);
    setText("");
  };
  return (
    <form
      className="rule-form"
      aria-label="Add a rule"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() !== "" && placed) void add();
      }}
    >
      <select aria-label="Rule behavior" value={behavior} onChange={(e) => setBehavior(e.target.value as RuleBehavior)}>
        <option value="allow">allow</option>
        <option value="ask">ask</option>
        <option value="deny">deny</option>
      </select>
      <input aria-label="Rule" placeholder="Bash(pnpm test:*)" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.stopPropagation()} />
      <select aria-label="Rule scope" value={scope} onChange={(e) => setScope(e.target.value as RuleScope)}>
        <option value="project">this project</option>
        <option value="session">this session</option>
        <option value="everywhere">everywhere</option>
      </select>
      <button type="submit" className="primary" disabled={busy || text.trim() === "" || !placed}>Add</button>
      {!placed ? <div className="dim">Open a session tab to add a rule for its {scope}.</div> : null}
      {error !== undefined ? (
        <div role="alert" className="folder-problem" aria-label="Rule error">
          <VisibleText text={error} />
        </div>
      ) : null}
    </form>
  );
}

/**
 * What holds preset agents' commands, and the person's way out where the OS sandbox cannot run (or
 * breaks a toolchain): "policy check only", for sessions started from now on.
 */
function Protection({ policy }: { policy: PolicyInfo }) {
  const [busy, setBusy] = useState(false);
  const checkOnly = policy.sandbox.state === "policy-only";
  const toggle = async (on: boolean): Promise<void> => {
    setBusy(true);
    report("Policy check only", await api().setPolicyCheckOnly(on));
    setBusy(false);
  };
  return (
    <div className="protection" aria-label="What holds preset agents' commands">
      <div className={policy.sandbox.state === "os" ? "dim" : "folder-problem"}>
        <VisibleText text={policy.sandbox.message} />
      </div>
      <label title="Preset agents' Bash runs without the operating system's sandbox: only Baton's reading of each line holds it">
        <input type="checkbox" aria-label="Policy check only" checked={checkOnly} disabled={busy} onChange={(e) => void toggle(e.target.checked)} />
        Policy check only (no OS sandbox) for new sessions
      </label>
    </div>
  );
}

function Presets({ policy }: { policy: PolicyInfo }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const reset = async (): Promise<void> => {
    setBusy(true);
    report("Restore built-in presets", await api().resetPresets());
    setBusy(false);
    setConfirming(false);
  };
  return (
    <section aria-label="Presets">
      <h4>Presets {policy.orchestration ? "(in force for new sessions)" : "(orchestration is off)"}</h4>
      <div className="dim" aria-label="Presets source">
        from <bdi dir="ltr"><VisibleText text={policy.presetsSource} /></bdi>
      </div>
      {policy.presetsProblem !== undefined ? (
        <div role="alert" className="folder-problem" aria-label="Presets file problem">
          <VisibleText text={policy.presetsProblem} />
        </div>
      ) : null}
      <ul className="preset-list">
        {policy.presets.map((p) => (
          <PresetSandbox key={p.name} preset={p} />
        ))}
      </ul>
      <Protection policy={policy} />
      {confirming ? (
        <div className="confirm" role="group" aria-label="Confirm restoring the built-in presets">
          Replace the presets file with the built-in presets?{" "}
          <button className="danger" disabled={busy} onClick={() => void reset()}>Restore</button>{" "}
          <button disabled={busy} onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      ) : (
        <button onClick={() => setConfirming(true)}>Restore built-in presets</button>
      )}
    </section>
  );
}
