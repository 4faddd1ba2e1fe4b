// One preset in the Rules view (issue 31), opened from its name: the commands it may run, the npm
// commands its pnpm patterns give it, what is refused for it whatever its commands and why, where it
// writes and which hosts it reaches. A presets file is the person's, but its text is drawn through
// VisibleText all the same.
import type { PresetInfo } from "../../shared/api.js";
import { networkScope, writeScope } from "../../shared/presetScope.js";
import { VisibleText } from "../util/VisibleText.js";

export function PresetSandbox({ preset }: { preset: PresetInfo }) {
  return (
    <li aria-label={`Preset ${preset.name}`}>
      <details>
        <summary title={preset.description}>
          <b><VisibleText text={preset.name} /></b> <span className="dim">{preset.character}</span> <VisibleText text={preset.description} />
        </summary>
        <dl className="preset-sandbox">
          <dt>Commands</dt>
          <dd aria-label="Commands"><Commands items={preset.exec} none="none: no shell commands" /></dd>
          <dt>npm</dt>
          <dd aria-label="npm"><Commands items={preset.npm} none="none: its commands have no pnpm test, run or exec to mirror" /></dd>
          <dt>Refused</dt>
          <dd>
            <ul className="refusals" aria-label="Refused">
              {preset.refused.map((r, i) => (
                <li key={`${i}\u0000${r.what}`}>
                  <code title={r.pattern}><VisibleText text={r.what} /></code> <span className="dim"><VisibleText text={r.reason} /></span>
                </li>
              ))}
            </ul>
          </dd>
          <dt>Writes</dt>
          <dd aria-label="Writes">{writeScope(preset.write)}</dd>
          <dt>Network</dt>
          <dd aria-label="Network"><VisibleText text={networkScope(preset.network)} /></dd>
        </dl>
      </details>
    </li>
  );
}

function Commands({ items, none }: { items: readonly string[]; none: string }) {
  if (items.length === 0) return <span className="dim">{none}</span>;
  return (
    <>
      {items.map((item, i) => (
        <code key={`${i}\u0000${item}`} className="preset-command"><VisibleText text={item} /></code>
      ))}
    </>
  );
}
