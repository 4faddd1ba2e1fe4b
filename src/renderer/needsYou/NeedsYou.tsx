// The toolbar's "Needs you": how many things wait for the person across every tab, and a popover
// listing them oldest first (session, agent, one line), each with "Show" (its tab and card to the
// front) and its own answer form in place. It owns the "Next waiting" shortcut and the setting
// that turns desktop notifications on or off.
import { useEffect, useRef, useState, type RefObject } from "react";
import { Popover } from "../layout/Popover.js";
import { registerCommands } from "../palette/commands.js";
import { useApp } from "../state/appState.js";
import { nextItem, type WaitingItem } from "../state/needsYou.js";
import { PlanForm, QuestionForm } from "../transcript/EscalationForms.js";
import { PermissionPrompt } from "../transcript/PermissionPrompt.js";
import { VisibleText } from "../util/VisibleText.js";
import { bringForward, lastShownKey } from "./bringForward.js";
import { notificationsOn, setNotifications, useNotificationsOn } from "./notifySetting.js";
import { needsYouOf, useNeedsYou } from "./useNeedsYou.js";
import "./needsYou.css";

/** Brings the next waiting item forward (after the one shown last, else the oldest). */
export function showNextWaiting(): void {
  const item = nextItem(needsYouOf(useApp.getState()), lastShownKey());
  if (item !== undefined) bringForward(item);
}

function useNeedsYouCommands(): void {
  useEffect(
    () =>
      registerCommands([
        {
          id: "needs.next",
          title: "Show the next thing waiting for you",
          group: "Session",
          keys: "Mod+J",
          enabled: () => needsYouOf(useApp.getState()).length > 0,
          run: showNextWaiting,
        },
        {
          id: "needs.notifications",
          title: "Turn desktop notifications on or off",
          group: "Window",
          run: () => void setNotifications(!notificationsOn()),
        },
      ]),
    [],
  );
}

export function NeedsYouButton() {
  const items = useNeedsYou();
  useNeedsYouCommands();
  const count = items.length;
  return (
    <Popover
      label={count === 0 ? "Needs you: nothing waiting" : `Needs you: ${count} waiting`}
      title={`Needs you (${count === 0 ? "nothing waiting" : `${count} waiting`}; next: Ctrl/Cmd+J)`}
      className={`needs-button${count > 0 ? " waiting" : ""}`}
      kind="dialog"
      buttonText={
        <>
          Needs you{" "}
          <span className="needs-count" data-keep-in-sight={count > 0 ? "" : undefined}>
            {count}
          </span>
        </>
      }
    >
      {(close) => <NeedsYouList items={items} close={close} />}
    </Popover>
  );
}

function NeedsYouList({ items, close }: { items: readonly WaitingItem[]; close: () => void }) {
  const list = useRef<HTMLDivElement>(null);
  return (
    <div className="needs-list" ref={list} tabIndex={-1}>
      {items.length === 0 ? (
        <p className="dim needs-empty">Nothing waits for you.</p>
      ) : (
        <ol aria-label="Waiting for you, oldest first">
          {items.map((item) => (
            <NeedsYouItem key={item.key} item={item} close={close} list={list} />
          ))}
        </ol>
      )}
      <NotificationsSetting />
    </div>
  );
}

function NeedsYouItem({ item, close, list }: { item: WaitingItem; close: () => void; list: RefObject<HTMLDivElement | null> }) {
  const [note, setNote] = useState<string | undefined>(undefined);
  const self = useRef<HTMLLIElement>(null);
  // Answered here, it leaves the list with the keyboard in it: the list keeps the keyboard, so Esc
  // still closes the list (on the page, Esc would interrupt the session).
  useEffect(() => {
    const element = self.current;
    return () => {
      if (element !== null && (element.contains(document.activeElement) || document.activeElement === document.body)) list.current?.focus();
    };
  }, [list]);
  return (
    <li className="needs-item" ref={self} aria-label={`${item.sessionTitle}: ${item.agent}`}>
      <div className="needs-head">
        <span className="needs-where">
          <b><VisibleText text={item.sessionTitle} /></b> · <VisibleText text={item.agent} />
        </span>
        <button
          className="link"
          onClick={() => {
            close();
            bringForward(item);
          }}
        >
          Show
        </button>
      </div>
      <div className="needs-summary">
        <VisibleText text={item.summary} />
      </div>
      <details className="needs-answer">
        <summary>Answer here</summary>
        {note !== undefined ? (
          <div className="note error" role="alert">
            <VisibleText text={note} />
          </div>
        ) : null}
        {item.request !== undefined ? (
          <PermissionPrompt tabId={item.tabId} request={item.request} />
        ) : item.escalation?.kind === "plan" ? (
          <PlanForm tabId={item.tabId} escalation={item.escalation} onNote={setNote} />
        ) : item.escalation !== undefined ? (
          <QuestionForm tabId={item.tabId} escalation={item.escalation} onNote={setNote} />
        ) : null}
      </details>
    </li>
  );
}

function NotificationsSetting() {
  const on = useNotificationsOn();
  const [note, setNote] = useState<string | undefined>(undefined);
  return (
    <div className="needs-setting">
      <label>
        <input type="checkbox" checked={on} onChange={(e) => void setNotifications(e.target.checked).then(setNote)} /> Desktop notifications when
        something new waits and Baton is not in front
      </label>
      {note !== undefined ? (
        <div className="note error" role="alert">
          {note}
        </div>
      ) : null}
    </div>
  );
}
