// Whether Baton may show desktop notifications: the person's setting (remembered; on unless turned
// off) and, in a browser, the page's permission, asked for only when the person turns them on. In
// the desktop app the window's permission handler grants notifications to Baton's own page.
import { useSyncExternalStore } from "react";

const Key = "baton.notifications";

type Permission = "granted" | "denied" | "default" | "unsupported";

const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of [...listeners]) listener();
}

function stored(): string | null {
  try {
    return localStorage.getItem(Key);
  } catch {
    return null;
  }
}

export function notificationsWanted(): boolean {
  return stored() !== "off";
}

export function permission(): Permission {
  return typeof Notification === "undefined" ? "unsupported" : (Notification.permission as Permission);
}

/** Whether a notification would be shown now. */
export function notificationsOn(): boolean {
  return notificationsWanted() && permission() === "granted";
}

/**
 * Turns them on or off. Turning them on asks the browser first when it has not been asked (call it
 * from the person's click: browsers ignore requests made without one). Returns why they stay off.
 */
export async function setNotifications(on: boolean): Promise<string | undefined> {
  try {
    localStorage.setItem(Key, on ? "on" : "off");
  } catch {
    // Storage refused (a private window): the choice lasts until the page is closed.
  }
  changed();
  if (!on) return undefined;
  if (permission() === "default") await Notification.requestPermission();
  changed();
  const now = permission();
  if (now === "unsupported") return "This browser cannot show notifications.";
  if (now !== "granted") return "Notifications are blocked for this page: allow them in the browser's site settings.";
  return undefined;
}

/** The setting as a checkbox shows it (on, and allowed), re-rendering when it changes. */
export function useNotificationsOn(): boolean {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, notificationsOn);
}
