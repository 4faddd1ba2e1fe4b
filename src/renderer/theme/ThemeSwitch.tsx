// The toolbar's theme choice: light, dark, or whatever the system uses (followed live).
import { setThemeChoice, ThemeChoiceLabels, ThemeChoices, useTheme, type ThemeChoice } from "./theme.js";

export function ThemeSwitch() {
  const { choice, theme } = useTheme();
  return (
    <label className="tb-field" title={choice === "system" ? `Following the system: ${theme} now` : undefined}>
      Theme
      <select aria-label="Theme" value={choice} onChange={(e) => setThemeChoice(e.target.value as ThemeChoice)}>
        {ThemeChoices.map((c) => (
          <option key={c} value={c}>
            {ThemeChoiceLabels[c]}
          </option>
        ))}
      </select>
    </label>
  );
}
