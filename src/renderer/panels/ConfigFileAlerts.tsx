// Beside the orchestration switch: Baton's rules or settings file is not in force, most often
// because it is not the person's alone (another user's, or writable by others: its writer could
// allow anything), so Baton does not read it. The presets file's problem is said by the switch
// itself; the whole text is in the title, the Console and the Rules view.
import { useApp } from "../state/appState.js";
import { VisibleText } from "../util/VisibleText.js";

export function ConfigFileAlerts() {
  const rulesProblem = useApp((s) => s.policy?.rulesProblem);
  const settingsProblem = useApp((s) => s.policy?.settingsProblem);
  return (
    <>
      {rulesProblem !== undefined ? (
        <span role="alert" className="tb-problem" aria-label="Rules problem" title={rulesProblem}>
          ⚠ rules file not used (none of its rules in force): <VisibleText text={rulesProblem} />
        </span>
      ) : null}
      {settingsProblem !== undefined ? (
        <span role="alert" className="tb-problem" aria-label="Settings problem" title={settingsProblem}>
          ⚠ settings file not used (defaults in force): <VisibleText text={settingsProblem} />
        </span>
      ) : null}
    </>
  );
}
